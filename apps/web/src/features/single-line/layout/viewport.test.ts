import { describe, expect, it } from 'vitest';
import { FIT_MAX_ZOOM, fitView, MAX_ZOOM, toDiagram, viewportHeight, zoomAt } from './viewport';

describe('fitView', () => {
  it('centres the whole diagram, scaled down to the viewport', () => {
    // 1000 × 500 into 524 × 524 (12 px padding): k = 500 / 1000.
    const v = fitView({ minX: 0, minY: 0, maxX: 1000, maxY: 500 }, 524, 524);
    expect(v.k).toBeCloseTo(0.5, 9);
    expect(v).toMatchObject({ x: 12, y: (524 - 250) / 2 });
  });

  it('never enlarges a small diagram beyond the fitting cap', () => {
    expect(fitView({ minX: 10, minY: 10, maxX: 20, maxY: 20 }, 1000, 1000).k).toBe(FIT_MAX_ZOOM);
  });
});

describe('zoomAt', () => {
  it('keeps the diagram point under the cursor and caps the zoom', () => {
    const v = { k: 1, x: 10, y: 20 };
    const before = toDiagram(v, 200, 100);
    const z = zoomAt(v, 2, 200, 100);
    expect(z.k).toBe(2);
    expect(toDiagram(z, 200, 100)).toEqual(before);
    expect(zoomAt(v, 100, 0, 0).k).toBe(MAX_ZOOM);
  });
});

describe('viewportHeight', () => {
  it('is the diagram fitted to the width, within bounds', () => {
    // 366 / 1000 of 400 high plus padding: a phone shows the whole width without empty space.
    expect(viewportHeight({ minX: 0, minY: 0, maxX: 1000, maxY: 400 }, 390, 100, 800)).toBe(
      Math.round(400 * 0.366 + 24),
    );
    expect(viewportHeight({ minX: 0, minY: 0, maxX: 100, maxY: 5000 }, 390, 200, 800)).toBe(800);
    expect(viewportHeight({ minX: 0, minY: 0, maxX: 5000, maxY: 10 }, 390, 260, 800)).toBe(260);
  });
});
