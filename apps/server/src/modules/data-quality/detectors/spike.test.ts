import { describe, expect, it } from 'vitest';
import { detectSpikes } from './spike';
import { at, konyaDay, poaSeries, powerSeries, series, timestamps } from './synthetic-day';

describe('spike detector (Hampel)', () => {
  const plant = konyaDay();

  it('finds nothing on a clear day, sunrise and sunset ramps included', () => {
    expect(detectSpikes(poaSeries(plant), plant)).toEqual([]);
    expect(detectSpikes(powerSeries(plant, 300, 200), plant)).toEqual([]);
  });

  it('flags the single reading that jumps 400 W/m² at 10:00 and only it', () => {
    const s = poaSeries(plant);
    const i = at(plant, 10);
    const truth = s.readings[i]!.value;
    s.readings[i]!.value = truth + 400;
    const flags = detectSpikes(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ reason: 'spike', fromMs: s.readings[i]!.ts, readings: 1 });
    expect(flags[0]!.detail.value).toBe(truth + 400);
    expect(Math.abs(flags[0]!.detail.median! - truth)).toBeLessThan(30);
  });

  it('flags a dropout of an inverter reading to zero at noon', () => {
    const s = powerSeries(plant, 240, 200);
    s.readings[at(plant, 13)]!.value = 0;
    expect(detectSpikes(s, plant).map((f) => f.readings)).toEqual([1]);
  });

  it('flags a temperature spike even at night, and not the noise', () => {
    const readings = timestamps(plant).map((ts, i) => ({ ts, value: 20 + 0.1 * Math.sin(i) }));
    readings[at(plant, 2)]!.value = 85;
    const flags = detectSpikes(series('temperature_ambient', readings), plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.fromMs).toBe(readings[at(plant, 2)]!.ts);
  });
});
