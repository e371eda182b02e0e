import { describe, expect, it } from 'vitest';
import { detectDayEnergyImpossible, plantDaylightHours } from './day-energy';
import { sunDay } from './sun';
import { counterSeries, konyaDay } from './synthetic-day';

describe('impossible day energy', () => {
  const plant = konyaDay('2026-06-21');
  const counters = () =>
    [1, 2, 3, 4, 5].map((d) => counterSeries(plant, 240, 200, 10_000 * d, { signalId: 10 + d, deviceId: d }));

  it('knows the daylight of the solstice at 37.9 N (≈ 14.6 h)', () => {
    expect(sunDay(plant).daylightHours).toBeGreaterThan(14.4);
    expect(sunDay(plant).daylightHours).toBeLessThan(14.9);
    // The bound's daylight (shared with the KPIs): whole 5-minute intervals with the sun above −1° at an edge.
    expect(plantDaylightHours(plant)).toBeGreaterThan(14.6);
    expect(plantDaylightHours(plant)).toBeLessThan(15.2);
  });

  it('counts every hour of a plant without a position, as the KPIs do', () => {
    expect(plantDaylightHours({ ...plant, latitude: null, longitude: null })).toBe(24);
  });

  it('finds nothing on a clear day', () => {
    expect(detectDayEnergyImpossible(counters(), plant)).toEqual([]);
  });

  it('flags a counter whose day holds more than its rating × daylight × 1.2, and the plant when the sum does', () => {
    const cs = counters();
    const last = cs[0]!.readings.at(-1)!;
    last.value += 20_000;
    const hours = plantDaylightHours(plant);
    const flags = detectDayEnergyImpossible(cs, plant);
    expect(flags.map((f) => f.signalId)).toEqual([11, null]);
    expect(flags[0]!.detail.maxKwh).toBeCloseTo(200 * hours * 1.2, 0);
    expect(flags[1]).toMatchObject({
      deviceId: null,
      reason: 'day_energy_impossible',
      fromMs: plant.dayStartMs,
      toMs: plant.dayEndMs,
    });
    expect(flags[1]!.detail.maxKwh).toBeCloseTo(1000 * hours * 1.2, 0);
  });

  it('does not add a plant meter to its inverters', () => {
    const meter = counterSeries(plant, 1200, 1000, 1e6, { signalId: 99, deviceId: 99, ratedPowerKw: 1000 });
    expect(detectDayEnergyImpossible([...counters(), meter], plant)).toEqual([]);
  });
});
