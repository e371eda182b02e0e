/**
 * The KPI engine and the data-quality detector judge an impossible day by one bound
 * (@solar/pv-model day-energy-bound.ts): run both on the same days with the energy just under, at and just
 * over it, and they must agree — a day the KPIs refuse is a day the detector flags, and the reverse.
 */
import { dayEnergyLimitKwh, daylightHours, fiveMinuteIntervals } from '@solar/pv-model';
import { describe, expect, it } from 'vitest';
import { detectPlantDay, type PlantDay, type SignalSeries } from '../../data-quality';
import { plantDayKpis, type PlantDayInterval } from './plant-day';

const HOUR = 3_600_000;
const konya = { latitude: 37.9, longitude: 32.5 };
const berlin = { latitude: 52.5, longitude: 13.4 };

/** A plant day with a location (the KPI engine's geometry needs one). */
type LocatedPlantDay = PlantDay & typeof konya;

/** A 100 kW plant with one 100 kW inverter; its local day [startMs, endMs). */
function plantDay(startMs: number, endMs: number, where: typeof konya, timeZone: string): LocatedPlantDay {
  return {
    plantId: 1,
    timeZone,
    dayStartMs: startMs,
    dayEndMs: endMs,
    ...where,
    tiltDeg: 30,
    azimuthDeg: 180,
    acCapacityKw: 100,
    dcCapacityKwp: 120,
  };
}

/** The day's energy spread evenly over its 5-minute intervals, as the KPI engine and as a counter see it. */
function both(plant: LocatedPlantDay, energyKwh: number) {
  const intervals = fiveMinuteIntervals(plant.dayStartMs, plant.dayEndMs);
  const perStep = energyKwh / intervals.length;
  const kpi = plantDayKpis({
    config: {
      dcCapacityKwp: 120,
      acCapacityKw: 100,
      inverterRatedAcKw: [100],
      geometry: { latitude: plant.latitude, longitude: plant.longitude, tiltDeg: 30, azimuthDeg: 180 },
      location: { latitude: plant.latitude, longitude: plant.longitude },
      co2FactorKgPerKwh: 0.44,
    },
    intervals: intervals.map((iv): PlantDayInterval => ({
      ...iv,
      poaWm2: null,
      ghiWm2: null,
      moduleTemperatureC: null,
      ambientTemperatureC: null,
      windSpeedMs: null,
      inverters: [{ energyKwh: perStep }],
    })),
    meterExportKwh: null,
  });
  const counter: SignalSeries = {
    signalId: 11,
    deviceId: 1,
    kind: 'energy_counter',
    unit: 'kwh',
    expectedIntervalMs: 300_000,
    ratedPowerKw: 100,
    counterBits: null,
    previous: { ts: plant.dayStartMs - 300_000, value: 50_000 },
    readings: intervals.map((iv, i) => ({
      ts: iv.startMs + iv.durationMs,
      value: 50_000 + perStep * (i + 1),
    })),
  };
  const flags = detectPlantDay({ plant, series: [counter], earlierDays: [], neighbours: [] }).filter(
    (f) => f.reason === 'day_energy_impossible',
  );
  return {
    kpiRefuses: kpi.kpis.energyKwh === null && kpi.kpis.excludedEnergyKwh.day_energy_impossible > 0,
    detectorFlags: flags.length > 0,
  };
}

const days: [string, LocatedPlantDay][] = [
  [
    'Konya, June solstice',
    plantDay(
      Date.parse('2026-06-21T00:00:00Z') - 3 * HOUR,
      Date.parse('2026-06-22T00:00:00Z') - 3 * HOUR,
      konya,
      'Europe/Istanbul',
    ),
  ],
  [
    'Konya, December solstice',
    plantDay(
      Date.parse('2026-12-21T00:00:00Z') - 3 * HOUR,
      Date.parse('2026-12-22T00:00:00Z') - 3 * HOUR,
      konya,
      'Europe/Istanbul',
    ),
  ],
  // 23 hours: Berlin springs forward on 29 March 2026 (01:00 → 02:00 UTC+1 → UTC+2).
  [
    'Berlin, the 23-hour day',
    plantDay(Date.parse('2026-03-28T23:00:00Z'), Date.parse('2026-03-29T22:00:00Z'), berlin, 'Europe/Berlin'),
  ],
];

describe('one impossible-day bound for the KPIs and the data-quality detector', () => {
  it.each(days)('%s: both refuse exactly the energy above the bound', (_, plant) => {
    const hours = daylightHours(fiveMinuteIntervals(plant.dayStartMs, plant.dayEndMs), plant);
    const limit = dayEnergyLimitKwh(100, hours)!;
    // The bound is AC capacity × daylight × 1.2, the daylight a plausible one for the place and season.
    expect(limit).toBeCloseTo(100 * hours * 1.2, 9);
    expect(hours).toBeGreaterThan(9);
    expect(hours).toBeLessThan(16);
    for (const factor of [0.5, 0.99, 0.999, 1.001, 1.01, 2]) {
      const { kpiRefuses, detectorFlags } = both(plant, limit * factor);
      expect({ factor, kpiRefuses, detectorFlags }).toEqual({
        factor,
        kpiRefuses: factor > 1,
        detectorFlags: factor > 1,
      });
    }
  });
});
