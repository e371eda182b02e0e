import L from 'leaflet';

// leaflet.markercluster reads and extends `window.L` (see leaflet.ts).
(globalThis as unknown as { L: typeof L }).L = L;
