import type { FeatureCollection } from 'geojson';
import { describe, expect, it } from 'vitest';
import { outlineBoundsAround } from './outline-bounds';

const square = (west: number, south: number, size: number) => ({
  type: 'Feature' as const,
  properties: {},
  geometry: {
    type: 'Polygon' as const,
    coordinates: [
      [
        [west, south],
        [west + size, south],
        [west + size, south + size],
        [west, south + size],
        [west, south],
      ],
    ],
  },
});
const outlines: FeatureCollection = {
  type: 'FeatureCollection',
  features: [square(0, 0, 10), square(20, 0, 10)],
};

describe('outlineBoundsAround', () => {
  it('spans the outlines that hold a point, and only those', () => {
    expect(outlineBoundsAround(outlines, [{ latitude: 5, longitude: 5 }])).toEqual([
      [0, 0],
      [10, 10],
    ]);
    expect(
      outlineBoundsAround(outlines, [
        { latitude: 5, longitude: 5 },
        { latitude: 2, longitude: 25 },
      ]),
    ).toEqual([
      [0, 0],
      [10, 30],
    ]);
  });
  it('keeps a point outside every outline (at sea) and answers null without points', () => {
    expect(outlineBoundsAround(outlines, [{ latitude: 40, longitude: 15 }])).toEqual([
      [40, 15],
      [40, 15],
    ]);
    expect(outlineBoundsAround(outlines, [])).toBeNull();
  });
});
