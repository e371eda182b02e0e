import { z } from 'zod';

/** GET map/settings: the map's base layer as the server is configured (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). */
export const mapSettingsAnswer = z.object({
  /** A Leaflet tile URL template with {z}, {x}, {y} (and optionally {s}); the CSP allows its host for images. */
  tile_url: z.string(),
  /** The attribution the tile server's licence asks for, shown in the map's corner. */
  tile_attribution: z.string(),
});
export type MapSettingsAnswer = z.infer<typeof mapSettingsAnswer>;
