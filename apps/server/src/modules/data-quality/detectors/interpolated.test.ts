import { describe, expect, it } from 'vitest';
import { detectInterpolated } from './interpolated';
import { HOUR, at, konyaDay, poaSeries, series, timestamps } from './synthetic-day';

describe('interpolated detector', () => {
  const plant = konyaDay();

  it('finds nothing on a clear day', () => {
    expect(detectInterpolated(poaSeries(plant), plant)).toEqual([]);
  });

  it("flags a logger's straight line over 08:00–09:00 (its 11 readings inside)", () => {
    const s = poaSeries(plant);
    const a = at(plant, 8);
    const b = at(plant, 9);
    const va = s.readings[a]!.value;
    const vb = s.readings[b]!.value;
    for (let i = a + 1; i < b; i++) s.readings[i]!.value = va + ((vb - va) * (i - a)) / (b - a);
    const flags = detectInterpolated(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      reason: 'interpolated',
      fromMs: plant.dayStartMs + 8 * HOUR + 5 * 60_000,
      toMs: plant.dayStartMs + 9 * HOUR,
      readings: 11,
    });
    expect(flags[0]!.detail.slopePerHour).toBeCloseTo(vb - va, 3);
  });

  it('does not call a constant run or a short line interpolated', () => {
    const readings = timestamps(plant).map((ts) => ({ ts, value: 25 }));
    for (let i = 0; i < 4; i++) readings[100 + i]!.value = 25 + i;
    readings[200]!.value = 40;
    expect(detectInterpolated(series('temperature_module', readings), plant)).toEqual([]);
  });
});
