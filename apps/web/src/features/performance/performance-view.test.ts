import { describe, expect, it } from 'vitest';
import { sparklinePoints, toFraction, toPercent } from './performance-view';

describe('performance view helpers', () => {
  it('draws clean at the top and the lowest ratio of each slice', () => {
    const series = [1, 0.98, 0.96, 1, 0.99, 0.9].map((ratio, i) => ({ date: `2025-01-0${i + 1}`, ratio }));
    expect(sparklinePoints(series, 100, 10, 3)).toBe('0.0,2.0 50.0,4.0 100.0,10.0');
    expect(sparklinePoints([], 100, 10)).toBe('');
    expect(sparklinePoints([{ date: '2025-01-01', ratio: 1 }], 100, 10)).toBe('0.0,0.0');
  });

  it('converts fractions and percentages without float noise', () => {
    expect(toPercent(0.14)).toBe(14);
    expect(toPercent(-0.0037)).toBe(-0.37);
    expect(toFraction(-0.37)).toBe(-0.0037);
    expect(toFraction(null)).toBeNull();
  });
});
