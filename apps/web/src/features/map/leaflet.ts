// Leaflet with the marker-cluster plugin. The plugin is a UMD script that extends the global `L`, so the
// global is set before the plugin's module runs (ES modules evaluate their imports in order).
import L from 'leaflet';
import './leaflet-global';
import 'leaflet.markercluster';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';

export default L;
