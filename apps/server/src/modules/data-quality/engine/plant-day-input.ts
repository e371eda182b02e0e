import type { NeighbourIrradiance, PlantDay, PlantDayInput, Reading, SignalSeries } from '../detectors';
import type { SignalKindOf } from '../signal-kinds';

/** A signal as the engine reads it: its device's figures and its kind (signal-kinds.ts). */
export interface EngineSignal {
  signalId: number;
  deviceId: number;
  plantId: number;
  kind: SignalKindOf;
  /** The device's reporting interval (its poll interval); null when unknown. */
  expectedIntervalMs: number | null;
  ratedPowerKw: number | null;
}

/** Points as the telemetry store answers them: [epoch ms, value or null], oldest first. */
export type StoredPoints = readonly (readonly [number, number | null])[];

/** Irradiance neighbours lie within this distance of the plant (plants of the same field). */
export const NEIGHBOUR_RADIUS_KM = 5;
/** How many days before the checked one the detectors see (replayed-day detection). */
export const EARLIER_DAYS = 2;

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km by the haversine formula (mean Earth radius, IUGG). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The readings of `points` in [fromMs, toMs) converted to the detectors' unit, and the last one before
 * `fromMs` (a counter's continuity across midnight). Null values (not a number in storage) are dropped:
 * for the detectors they are missing, which a gap then reports.
 */
export function readingsIn(
  points: StoredPoints,
  factor: number,
  fromMs: number,
  toMs: number,
): { previous: Reading | null; readings: Reading[] } {
  let previous: Reading | null = null;
  const readings: Reading[] = [];
  for (const [ts, value] of points) {
    if (value === null || !Number.isFinite(value)) continue;
    if (ts < fromMs) previous = { ts, value: value * factor };
    else if (ts < toMs) readings.push({ ts, value: value * factor });
    else break;
  }
  return { previous, readings };
}

/** One signal's series over [fromMs, toMs). */
export function seriesOf(
  signal: EngineSignal,
  points: StoredPoints,
  fromMs: number,
  toMs: number,
): SignalSeries {
  const { previous, readings } = readingsIn(points, signal.kind.factor, fromMs, toMs);
  return {
    signalId: signal.signalId,
    deviceId: signal.deviceId,
    kind: signal.kind.kind,
    unit: signal.kind.unit,
    expectedIntervalMs: signal.expectedIntervalMs,
    ratedPowerKw: signal.ratedPowerKw,
    counterBits: signal.kind.counterBits,
    previous,
    readings,
  };
}

/**
 * The detectors' input for one plant day: its signals over [day.dayStartMs, day.dayEndMs), the same
 * signals over each of `earlierStarts` (newest first; each earlier day ends where the next begins), and
 * the neighbours' irradiance series already built.
 */
export function buildPlantDayInput(
  day: PlantDay,
  signals: readonly EngineSignal[],
  points: ReadonlyMap<number, StoredPoints>,
  earlierStarts: readonly number[],
  neighbours: NeighbourIrradiance[],
): PlantDayInput {
  const of = (s: EngineSignal) => points.get(s.signalId) ?? [];
  const series = signals.map((s) => seriesOf(s, of(s), day.dayStartMs, day.dayEndMs));
  let end = day.dayStartMs;
  const earlierDays = earlierStarts.map((start) => {
    const day = { dayStartMs: start, series: signals.map((s) => seriesOf(s, of(s), start, end)) };
    end = start;
    return day;
  });
  return { plant: day, series, earlierDays, neighbours };
}

/** A flag's name within its plant and day: a rerun that finds it again finds the same stored row. */
export function flagKey(flag: {
  signalId: number | null;
  deviceId: number | null;
  reason: string;
  fromMs: number;
}): string {
  return `${flag.reason}:${flag.signalId ?? flag.deviceId ?? 'plant'}:${flag.fromMs}`;
}
