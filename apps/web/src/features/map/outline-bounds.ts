import type { FeatureCollection, Position } from 'geojson';
import type { LatLng } from './marker-icons';

type Bounds = [[number, number], [number, number]];

/** True when the point lies inside the ring ([longitude, latitude] pairs, as GeoJSON has them): ray casting. */
function inRing(lng: number, lat: number, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * South-west and north-east corners around the points and the outline of each country part (polygon)
 * holding one of them, or null without points: the view that shows the plants inside their borders when
 * there is no base map to say where they are.
 */
export function outlineBoundsAround(outlines: FeatureCollection, points: readonly LatLng[]): Bounds | null {
  if (points.length === 0) return null;
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  const include = (lng: number, lat: number) => {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
  };
  for (const p of points) include(p.longitude, p.latitude);
  for (const feature of outlines.features) {
    const g = feature.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const [outer] of polygons) {
      if (!outer || !points.some((p) => inRing(p.longitude, p.latitude, outer))) continue;
      for (const [lng, lat] of outer as [number, number][]) include(lng, lat);
    }
  }
  return [
    [south, west],
    [north, east],
  ];
}
