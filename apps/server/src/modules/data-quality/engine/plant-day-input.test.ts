import { describe, expect, it } from 'vitest';
import type { PlantDay } from '../detectors';
import { signalKindOf } from '../signal-kinds';
import { buildPlantDayInput, distanceKm, flagKey, readingsIn, type EngineSignal } from './plant-day-input';

const H = 3_600_000;

describe('distanceKm', () => {
  it('is the haversine distance on the mean Earth radius: a degree of meridian, a quarter of the equator', () => {
    expect(distanceKm(40, 30, 41, 30)).toBeCloseTo(111.195, 2);
    expect(distanceKm(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * 6371.0088, 6);
    // Half a kilometre east at 37.7° N: 0.5 / (111.195 × cos 37.7°) degrees of longitude.
    expect(
      distanceKm(37.7, 33.5, 37.7, 33.5 + 0.5 / (111.19508 * Math.cos((37.7 * Math.PI) / 180))),
    ).toBeCloseTo(0.5, 4);
    expect(distanceKm(37.7, 33.5, 37.7, 33.5)).toBe(0);
  });
});

describe('readingsIn', () => {
  it('converts, keeps the last reading before the range and drops values that are not numbers', () => {
    const points = [
      [0, 1000],
      [10, 2000],
      [20, null],
      [30, 3000],
      [40, 4000],
    ] as const;
    expect(readingsIn(points, 0.001, 15, 40)).toEqual({
      previous: { ts: 10, value: 2 },
      readings: [{ ts: 30, value: 3 }],
    });
  });
});

describe('buildPlantDayInput', () => {
  const plant: PlantDay = {
    plantId: 1,
    timeZone: 'UTC',
    dayStartMs: 48 * H,
    dayEndMs: 72 * H,
    latitude: 37.7,
    longitude: 33.5,
    tiltDeg: 30,
    azimuthDeg: 180,
    acCapacityKw: 100,
    dcCapacityKwp: 120,
  };
  const counter: EngineSignal = {
    signalId: 7,
    deviceId: 3,
    plantId: 1,
    kind: signalKindOf({ key: 'total_energy', unit: 'Wh', isCounter: true, sunspecType: 'acc32' }),
    expectedIntervalMs: H,
    ratedPowerKw: 50,
  };

  it('splits three days of readings into the day and the two before, newest first, in kWh', () => {
    const points = new Map([[7, Array.from({ length: 72 }, (_, i) => [i * H, i * 1000] as const)]]);
    const input = buildPlantDayInput(plant, [counter], points, [24 * H, 0], []);
    const [series] = input.series;
    expect(series).toMatchObject({
      signalId: 7,
      deviceId: 3,
      kind: 'energy_counter',
      unit: 'kwh',
      counterBits: 32,
      expectedIntervalMs: H,
      ratedPowerKw: 50,
      previous: { ts: 47 * H, value: 47 },
    });
    expect(series!.readings).toHaveLength(24);
    expect(series!.readings[0]).toEqual({ ts: 48 * H, value: 48 });
    expect(input.earlierDays.map((d) => d.dayStartMs)).toEqual([24 * H, 0]);
    expect(input.earlierDays[0]!.series[0]!.readings.map((r) => r.value)).toEqual(
      Array.from({ length: 24 }, (_, i) => 24 + i),
    );
    expect(input.earlierDays[1]!.series[0]!.previous).toBeNull();
    expect(input.earlierDays[1]!.series[0]!.readings).toHaveLength(24);
  });

  it('names a flag by reason, signal (else device, else plant) and start', () => {
    expect(flagKey({ reason: 'gap', signalId: 7, deviceId: 3, fromMs: 5 })).toBe('gap:7:5');
    expect(flagKey({ reason: 'clock_shift', signalId: null, deviceId: 3, fromMs: 5 })).toBe(
      'clock_shift:3:5',
    );
    expect(flagKey({ reason: 'day_energy_impossible', signalId: null, deviceId: null, fromMs: 0 })).toBe(
      'day_energy_impossible:plant:0',
    );
  });
});
