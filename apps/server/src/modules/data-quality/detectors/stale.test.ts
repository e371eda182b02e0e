import { describe, expect, it } from 'vitest';
import { detectStale, detectStaleCounter } from './stale';
import { HOUR, at, counterSeries, konyaDay, poaSeries, powerSeries } from './synthetic-day';

describe('stale detector', () => {
  const plant = konyaDay();

  it('finds nothing on a clear day, whose nights are zero', () => {
    expect(detectStale(poaSeries(plant), plant)).toEqual([]);
    expect(detectStale(powerSeries(plant, 240, 200), plant)).toEqual([]);
  });

  it('flags irradiance stuck from 11:00 to 12:00', () => {
    const s = poaSeries(plant);
    const stuck = s.readings[at(plant, 11)]!.value;
    for (let i = at(plant, 11); i <= at(plant, 12); i++) s.readings[i]!.value = stuck;
    const flags = detectStale(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      reason: 'stale',
      fromMs: plant.dayStartMs + 11 * HOUR,
      readings: 13,
      detail: { value: stuck, minutes: 60 },
    });
  });

  it('does not call 25 minutes of a held value stale', () => {
    const s = poaSeries(plant);
    for (let i = at(plant, 11); i <= at(plant, 11, 25); i++) s.readings[i]!.value = 700;
    expect(detectStale(s, plant)).toEqual([]);
  });

  it('leaves a real zero (an outage) and the clipping plateau to others', () => {
    const outage = powerSeries(plant, 240, 200);
    for (let i = at(plant, 10); i <= at(plant, 12); i++) outage.readings[i]!.value = 0;
    expect(detectStale(outage, plant)).toEqual([]);
    const clipped = powerSeries(plant, 400, 200);
    expect(clipped.readings[at(plant, 12)]!.value).toBe(200);
    expect(detectStale(clipped, plant)).toEqual([]);
  });

  it('flags a counter that stands still for an hour while its inverter produces', () => {
    const power = powerSeries(plant, 240, 200);
    const counter = counterSeries(plant, 240, 200, 50_000);
    const held = counter.readings[at(plant, 10)]!.value;
    for (let i = at(plant, 10); i <= at(plant, 11); i++) counter.readings[i]!.value = held;
    const flags = detectStaleCounter(counter, power);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      reason: 'stale',
      fromMs: plant.dayStartMs + 10 * HOUR,
      detail: { minutes: 60 },
    });
    expect(flags[0]!.detail.expectedKwh).toBeGreaterThan(100);
    expect(detectStaleCounter(counterSeries(plant, 240, 200, 50_000), power)).toEqual([]);
  });
});
