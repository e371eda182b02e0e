import type { FeatureCollection } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * Country outlines shipped with the app (Natural Earth 1:110m via world-atlas, public domain), drawn under
 * the tiles: when the tile server cannot be reached (a plant site without internet) the plants still sit
 * on a recognisable map. Loaded on demand, so the page does not wait for it.
 */
export async function loadCountryOutlines(): Promise<FeatureCollection> {
  const [{ feature }, world] = await Promise.all([
    import('topojson-client'),
    import('world-atlas/countries-110m.json'),
  ]);
  const topology = world.default as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topology, topology.objects.countries);
}
