import { describe, expect, it } from 'vitest';
import { detectClipping } from './clipping';
import { at, konyaDay, powerSeries } from './synthetic-day';

describe('clipping', () => {
  const plant = konyaDay('2026-06-21');

  it('finds the noon plateau of an inverter with a DC/AC ratio of 1.5', () => {
    const s = powerSeries(plant, 300, 200);
    const flags = detectClipping(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.reason).toBe('clipping');
    expect(flags[0]!.detail).toEqual({ levelKw: 200, ratedPowerKw: 200 });
    const noon = s.readings[at(plant, 12, 30)]!.ts;
    expect(flags[0]!.fromMs).toBeLessThan(noon);
    expect(flags[0]!.toMs).toBeGreaterThan(noon);
    // Every reading in the flag sits at the limit.
    const inside = s.readings.filter((r) => r.ts >= flags[0]!.fromMs && r.ts < flags[0]!.toMs);
    expect(inside.every((r) => r.value >= 196)).toBe(true);
    expect(flags[0]!.readings).toBe(inside.length);
  });

  it('finds nothing when the array never reaches the limit, nor on a day far below the rating', () => {
    expect(detectClipping(powerSeries(plant, 200, 200), plant)).toEqual([]);
    expect(detectClipping(powerSeries(plant, 100, 200), plant)).toEqual([]);
  });
});
