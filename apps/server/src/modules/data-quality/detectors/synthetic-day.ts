/**
 * Synthetic plant days with a known truth for the detectors' tests: a clear-sky day at a Turkish plant
 * computed with @solar/pv-model (Haurwitz GHI, Erbs split, isotropic transposition), 5-minute readings,
 * into which each test injects its own fault. Not used by the engine.
 */
import {
  clearSkyGhiHaurwitz,
  dayOfYear,
  decomposeGhi,
  planeOfArrayIsotropic,
  sunPosition,
} from '@solar/pv-model';
import type { PlantDay, Reading, SignalKind, SignalSeries } from './types';

export const FIVE_MIN = 5 * 60_000;
export const HOUR = 3_600_000;

/** A plant near Konya (37.9 N 32.5 E, Europe/Istanbul, UTC+3 all year): 1 MW AC, 1.2 MWp DC, 30° south. */
export function konyaDay(isoDate = '2026-06-21', overrides: Partial<PlantDay> = {}): PlantDay {
  const dayStartMs = Date.parse(`${isoDate}T00:00:00Z`) - 3 * HOUR;
  return {
    plantId: 1,
    timeZone: 'Europe/Istanbul',
    dayStartMs,
    dayEndMs: dayStartMs + 24 * HOUR,
    latitude: 37.9,
    longitude: 32.5,
    tiltDeg: 30,
    azimuthDeg: 180,
    acCapacityKw: 1000,
    dcCapacityKwp: 1200,
    ...overrides,
  };
}

/** Clear-sky plane-of-array irradiance at `ts` for the plant, W/m². */
export function clearPoa(plant: PlantDay, ts: number): number {
  const sun = sunPosition(ts, plant.latitude!, plant.longitude!);
  const ghi = clearSkyGhiHaurwitz(sun.zenithDeg);
  if (ghi <= 0) return 0;
  return planeOfArrayIsotropic(
    decomposeGhi(ghi, sun.zenithDeg, dayOfYear(ts)),
    sun,
    plant.tiltDeg ?? 0,
    plant.azimuthDeg ?? 180,
  );
}

/** Timestamps of the day at `stepMs`, from the day's start. */
export function timestamps(plant: PlantDay, stepMs = FIVE_MIN): number[] {
  const out: number[] = [];
  for (let ts = plant.dayStartMs; ts < plant.dayEndMs; ts += stepMs) out.push(ts);
  return out;
}

/** A series with the given readings and sensible defaults. */
export function series(
  kind: SignalKind,
  readings: Reading[],
  extra: Partial<SignalSeries> = {},
): SignalSeries {
  return {
    signalId: 1,
    deviceId: 1,
    kind,
    unit: '',
    expectedIntervalMs: FIVE_MIN,
    ratedPowerKw: null,
    counterBits: null,
    previous: null,
    readings,
    ...extra,
  };
}

/** A clear-sky POA sensor, values rounded to 0.1 W/m² as a logger stores them. */
export function poaSeries(plant: PlantDay, extra: Partial<SignalSeries> = {}, shiftMs = 0): SignalSeries {
  return series(
    'irradiance_poa',
    timestamps(plant).map((ts) => ({ ts, value: Math.round(clearPoa(plant, ts - shiftMs) * 10) / 10 })),
    { signalId: 100, deviceId: 100, unit: 'w/m²', ...extra },
  );
}

/**
 * An inverter's AC power (kW) on the clear day: its share of the DC array at a performance ratio of 0.85,
 * capped at its rating (so a DC/AC ratio above 1 clips at noon).
 */
export function inverterPower(plant: PlantDay, ts: number, dcKwp: number, ratedKw: number): number {
  return Math.min(ratedKw, (clearPoa(plant, ts) / 1000) * dcKwp * 0.85);
}

/** An inverter's AC power series, rounded to 0.01 kW. */
export function powerSeries(
  plant: PlantDay,
  dcKwp: number,
  ratedKw: number,
  extra: Partial<SignalSeries> = {},
  shiftMs = 0,
): SignalSeries {
  return series(
    'ac_power',
    timestamps(plant).map((ts) => ({
      ts,
      value: Math.round(inverterPower(plant, ts - shiftMs, dcKwp, ratedKw) * 100) / 100,
    })),
    { signalId: 10, deviceId: 1, unit: 'kw', ratedPowerKw: ratedKw, ...extra },
  );
}

/** The inverter's lifetime energy counter (kWh, 0.1 kWh resolution), starting at `startKwh`. */
export function counterSeries(
  plant: PlantDay,
  dcKwp: number,
  ratedKw: number,
  startKwh: number,
  extra: Partial<SignalSeries> = {},
): SignalSeries {
  let energy = startKwh;
  const readings = timestamps(plant).map((ts) => {
    energy += (inverterPower(plant, ts, dcKwp, ratedKw) * FIVE_MIN) / HOUR;
    return { ts, value: Math.round(energy * 10) / 10 };
  });
  return series('energy_counter', readings, {
    signalId: 11,
    deviceId: 1,
    unit: 'kwh',
    ratedPowerKw: ratedKw,
    previous: { ts: plant.dayStartMs - FIVE_MIN, value: startKwh },
    ...extra,
  });
}

/** The index of the reading at local time hh:mm on the plant's day. */
export function at(plant: PlantDay, hh: number, mm = 0, stepMs = FIVE_MIN): number {
  return Math.round(((hh * 60 + mm) * 60_000) / stepMs);
}
