import { describe, expect, it } from 'vitest';
import type { DegradationResult } from '@solar/shared';
import { degradationView, sparklinePoints, toFraction, toPercent } from './performance-view';

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

describe('degradationView', () => {
  const short = (found: number) => ({
    status: 'insufficient_data' as const,
    from: '2026-09-01',
    to: '2026-11-28',
    span_days: 89,
    months_found: found,
    months_needed: 24,
  });
  const rate = {
    status: 'ok' as const,
    rate_pct_per_year: -0.5,
    ci_low_pct_per_year: -0.7,
    ci_high_pct_per_year: -0.3,
    confidence_level: 0.682,
    pairs: 400,
    block_length: 30,
    from: '2023-01-01',
    to: '2026-11-28',
    span_days: 1428,
  };
  const inverters = (results: DegradationResult[]) =>
    results.map((result, i) => ({ device_id: i + 1, name: `INV-${i + 1}`, result }));

  it('says "not enough data" once, for the plant, with its span, and lists no inverter without a rate', () => {
    const view = degradationView({
      plant: short(3),
      inverters: inverters(Array.from({ length: 10 }, () => short(3))),
    });
    expect(view.plant).toBeNull();
    expect(view.notEnough).toEqual({ found: 3, needed: 24, from: '2026-09-01', to: '2026-11-28' });
    expect(view.inverters).toEqual([]);
    expect(view.invertersWithout).toBe(10);
  });

  it('lists only the inverters that have a rate, and counts the others', () => {
    const view = degradationView({ plant: rate, inverters: inverters([rate, short(5), rate]) });
    expect(view.plant).toEqual(rate);
    expect(view.notEnough).toBeNull();
    expect(view.inverters.map((i) => i.name)).toEqual(['INV-1', 'INV-3']);
    expect(view.invertersWithout).toBe(1);
  });
});
