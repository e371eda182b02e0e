import { localMidnight, zoneOffsetMs, type ValueBounds } from '@solar/shared';
import { detectSignalDay, type PlantDay, type SignalKind, type SignalSeries } from '../data-quality';
import type { Point, SignalPoints } from './history-points';

const DAY_MS = 86_400_000;

/** Counts of one reason over a signal or the whole file. */
export interface QualityCount {
  reason: string;
  flags: number;
  readings: number;
}

/** What the detectors need of the plant, besides the day. */
export type PlantInfo = Omit<PlantDay, 'dayStartMs' | 'dayEndMs'>;

/** What the detectors need of a signal, besides its readings. */
export interface SignalInfo {
  key: string;
  ratedPowerKw: number | null;
  bounds: ValueBounds;
}

/**
 * The detectors' kind of a signal, from its key and unit (the data-quality engine derives kinds the same
 * way); `other` when nothing tells.
 */
export function kindOf(key: string, unit: string | null, isCounter: boolean): SignalKind {
  const k = key.toLowerCase();
  const u = (unit ?? '').toLowerCase();
  if (isCounter || /wh$/.test(u)) return 'energy_counter';
  if (/w\/m/.test(u) || /irradiance|poa|ghi/.test(k))
    return /ghi|horizontal/.test(k) ? 'irradiance_ghi' : 'irradiance_poa';
  if (/°c|degc|^c$/.test(u) || /temp/.test(k))
    return /module|panel|cell/.test(k)
      ? 'temperature_module'
      : /ambient|air/.test(k)
        ? 'temperature_ambient'
        : 'temperature_device';
  if (u === 'hz' || /freq/.test(k)) return 'frequency';
  if (u === 'v' || /voltage/.test(k)) return 'voltage';
  if (u === 'a' || /current/.test(k)) return 'current';
  if (/^(k|m)?w$/.test(u) || /power/.test(k)) return /dc/.test(k) ? 'dc_power' : 'ac_power';
  return 'other';
}

/** The most common spacing of the points: the interval the source reported at; null with under 3 points. */
export function typicalIntervalMs(points: readonly Point[]): number | null {
  if (points.length < 3) return null;
  const counts = new Map<number, number>();
  for (let i = 1; i < points.length; i++) {
    const d = points[i]!.ts - points[i - 1]!.ts;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [d, n] of counts)
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  return best > 0 ? best : null;
}

function add(counts: Map<string, QualityCount>, reason: string, flags: number, readings: number) {
  if (flags === 0) return;
  const c = counts.get(reason) ?? { reason, flags: 0, readings: 0 };
  c.flags += flags;
  c.readings += readings;
  counts.set(reason, c);
}

/**
 * A signal's quality report over the file: the data-quality detectors' flags per local day of the plant
 * (detectSignalDay: gaps and what else the detectors find), plus what only the import can see — the
 * file's repeated timestamps, values outside the signal's bounds (not stored, as ingest refuses them) and
 * counters that go backwards.
 */
export function signalQuality(series: SignalPoints, info: SignalInfo, plant: PlantInfo): QualityCount[] {
  const counts = new Map<string, QualityCount>();
  const { points, signal } = series;
  add(counts, 'duplicate', series.duplicates, series.duplicates);
  let outOfRange = 0;
  let backwards = 0;
  for (let i = 0; i < points.length; i++) {
    const v = points[i]!.value;
    if (
      (info.bounds.min !== null && v < info.bounds.min) ||
      (info.bounds.max !== null && v > info.bounds.max)
    )
      outOfRange++;
    if (signal.isCounter && i > 0 && v < points[i - 1]!.value) backwards++;
  }
  add(counts, 'out_of_range', outOfRange, outOfRange);
  add(counts, 'counter_backwards', backwards, backwards);
  const base: Omit<SignalSeries, 'readings' | 'previous'> = {
    signalId: signal.signalId,
    deviceId: signal.deviceId,
    kind: kindOf(info.key, signal.unit, signal.isCounter),
    unit: (signal.unit ?? '').toLowerCase(),
    expectedIntervalMs: typicalIntervalMs(points),
    ratedPowerKw: info.ratedPowerKw,
    counterBits: null,
  };
  // The plant's local days the points fall in, each handed to the detectors with the reading before it.
  let i = 0;
  let previous: Point | null = null;
  while (i < points.length) {
    const ts = points[i]!.ts;
    const date = new Date(ts + zoneOffsetMs(ts, plant.timeZone)).toISOString().slice(0, 10);
    const dayStartMs = localMidnight(date, plant.timeZone);
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    const dayEndMs = localMidnight(next, plant.timeZone);
    const readings: Point[] = [];
    while (i < points.length && points[i]!.ts < dayEndMs) readings.push(points[i++]!);
    for (const flag of detectSignalDay({ ...base, previous, readings }, { ...plant, dayStartMs, dayEndMs }))
      add(counts, flag.reason, 1, flag.reason === 'gap' ? (flag.detail.missing ?? 0) : flag.readings);
    previous = readings[readings.length - 1] ?? previous;
  }
  return [...counts.values()];
}

/** Counts of several signals summed per reason. */
export function sumQuality(lists: readonly QualityCount[][]): QualityCount[] {
  const counts = new Map<string, QualityCount>();
  for (const list of lists) for (const c of list) add(counts, c.reason, c.flags, c.readings);
  return [...counts.values()].sort((a, b) => a.reason.localeCompare(b.reason));
}
