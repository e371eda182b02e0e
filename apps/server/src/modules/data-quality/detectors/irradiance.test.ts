import { describe, expect, it } from 'vitest';
import {
  detectAboveClearSky,
  detectNeighbourDisagreement,
  detectNightOffset,
  detectPowerDrift,
} from './irradiance';
import { HOUR, at, clearPoa, konyaDay, poaSeries, powerSeries, timestamps } from './synthetic-day';
import type { NeighbourIrradiance, SignalSeries } from './types';

describe('irradiance plausibility', () => {
  const plant = konyaDay('2026-04-15');
  /** Five 200 kW inverters of 240 kWp each: 1 MW AC, 1.2 MWp DC; PR 0.85 on the clear day. */
  const inverters = (): SignalSeries[] =>
    [1, 2, 3, 4, 5].map((d) => powerSeries(plant, 240, 200, { signalId: 10 * d, deviceId: d }));

  it('finds nothing on a clear day', () => {
    const s = poaSeries(plant);
    expect(detectAboveClearSky(s, plant)).toEqual([]);
    expect(detectNightOffset(s, plant)).toEqual([]);
    expect(detectPowerDrift(s, inverters(), plant)).toEqual([]);
  });

  it('flags POA at 1.6 × clear sky over noon, with the clear-sky figure', () => {
    const s = poaSeries(plant);
    for (let i = at(plant, 12); i < at(plant, 13); i++) s.readings[i]!.value *= 1.6;
    const flags = detectAboveClearSky(s, plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      reason: 'irradiance_above_clear_sky',
      fromMs: plant.dayStartMs + 12 * HOUR,
      readings: 12,
    });
    expect(flags[0]!.detail.ratio).toBeCloseTo(1.6, 1);
    // 1.3 × is within cloud enhancement.
    const enhanced = poaSeries(plant);
    for (let i = at(plant, 12); i < at(plant, 13); i++) enhanced.readings[i]!.value *= 1.3;
    expect(detectAboveClearSky(enhanced, plant)).toEqual([]);
  });

  it('flags a 25 W/m² offset at night and not a −3 W/m² thermopile offset', () => {
    const s = poaSeries(plant);
    for (let i = 0; i < at(plant, 2); i++) s.readings[i]!.value = 25;
    for (let i = at(plant, 22); i < s.readings.length; i++) s.readings[i]!.value = -3;
    const flags = detectNightOffset(s, plant);
    expect(flags).toEqual([
      expect.objectContaining({
        reason: 'irradiance_night_offset',
        fromMs: plant.dayStartMs,
        toMs: plant.dayStartMs + 2 * HOUR,
        readings: 24,
      }),
    ]);
    expect(flags[0]!.detail).toEqual({ maxAbsWm2: 25, meanWm2: 25 });
  });

  it('flags a soiled sensor (reads 25 % low: the plant makes more than its irradiance allows)', () => {
    const s = poaSeries(plant);
    for (const r of s.readings) r.value *= 0.75;
    const flags = detectPowerDrift(s, inverters(), plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.reason).toBe('irradiance_power_drift');
    expect(flags[0]!.detail.ratio).toBeCloseTo(0.85 / 0.75, 1);
  });

  it('flags a sensor turned 60° to the west: its ratio to power drifts over the day', () => {
    const s = poaSeries({ ...plant, azimuthDeg: 240 });
    const flags = detectPowerDrift(s, inverters(), plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.detail.morningRatio).toBeGreaterThan(flags[0]!.detail.afternoonRatio! * 1.15);
  });

  it('flags a sensor reading 39 W/m² where its neighbour 0.3 km away reads 386, and not a good pair', () => {
    const mine = poaSeries(plant);
    for (const r of mine.readings) r.value = Math.round(r.value * 0.1);
    const neighbour: NeighbourIrradiance = {
      plantId: 2,
      distanceKm: 0.3,
      series: poaSeries(plant, { signalId: 200 }),
    };
    const flags = detectNeighbourDisagreement(mine, [neighbour], plant);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.reason).toBe('irradiance_neighbour_disagreement');
    expect(flags[0]!.detail.ratio).toBeCloseTo(0.1, 2);
    expect(flags[0]!.detail.distanceKm).toBe(0.3);
    expect(detectNeighbourDisagreement(poaSeries(plant), [neighbour], plant)).toEqual([]);
    // A neighbour 20 km away sees other clouds: not compared.
    expect(detectNeighbourDisagreement(mine, [{ ...neighbour, distanceKm: 20 }], plant)).toEqual([]);
  });

  it('flags a neighbour pair that correlates badly under passing clouds only beyond what clouds explain', () => {
    // Both sensors see clouds, shifted by 10 minutes (clouds drift across the field): agreement.
    const cloud = (ts: number) => 0.6 + 0.4 * Math.abs(Math.sin(ts / (40 * 60_000)));
    const make = (lagMs: number, id: number): SignalSeries =>
      poaSeries(plant, {
        signalId: id,
        readings: timestamps(plant).map((ts) => ({ ts, value: clearPoa(plant, ts) * cloud(ts + lagMs) })),
      });
    const a = make(0, 100);
    const b: NeighbourIrradiance = { plantId: 2, distanceKm: 2, series: make(10 * 60_000, 200) };
    expect(detectNeighbourDisagreement(a, [b], plant)).toEqual([]);
    // One good and one broken neighbour: the sensor disagrees with only half of them and is not flagged.
    const broken: NeighbourIrradiance = {
      plantId: 3,
      distanceKm: 1,
      series: poaSeries(plant, { readings: a.readings.map((r) => ({ ts: r.ts, value: r.value * 3 })) }),
    };
    expect(detectNeighbourDisagreement(a, [b, broken], plant)).toEqual([]);
  });
});
