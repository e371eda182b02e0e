import type { DataQualityReason } from '@solar/shared';
import type { DetectedFlag, Reading, SignalKind, SignalSeries } from './types';

/** Kinds whose value follows the sun: they must vary in daylight and be near zero at night. */
export const SOLAR_KINDS: ReadonlySet<SignalKind> = new Set([
  'ac_power',
  'dc_power',
  'irradiance_poa',
  'irradiance_ghi',
]);
export const IRRADIANCE_KINDS: ReadonlySet<SignalKind> = new Set(['irradiance_poa', 'irradiance_ghi']);
export const POWER_KINDS: ReadonlySet<SignalKind> = new Set(['ac_power', 'dc_power']);

/**
 * The series' reporting interval: the expected one, else the median step between readings (a robust guess
 * when the device's interval is not configured); null with fewer than two readings.
 */
export function stepMs(series: SignalSeries): number | null {
  if (series.expectedIntervalMs !== null && series.expectedIntervalMs > 0) return series.expectedIntervalMs;
  const r = series.readings;
  if (r.length < 2) return null;
  const steps: number[] = [];
  for (let i = 1; i < r.length; i++) steps.push(r[i]!.ts - r[i - 1]!.ts);
  return median(steps);
}

/** Median of a list (sorts a copy). */
export function median(values: ArrayLike<number>): number {
  const a = Float64Array.from(values).sort();
  const n = a.length;
  if (n === 0) return NaN;
  return n % 2 ? a[(n - 1) / 2]! : (a[n / 2 - 1]! + a[n / 2]!) / 2;
}

/** Rounds a figure for `detail` to what an operator reads (4 significant digits at most, 3 decimals). */
export function round(value: number, decimals = 3): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * One flag over the readings [from, to] (inclusive indexes) of a series: the period runs from the first
 * reading to one interval after the last, clamped to the day's end by the caller's merge.
 */
export function flagOver(
  series: SignalSeries,
  reason: DataQualityReason,
  readings: Reading[],
  from: number,
  to: number,
  step: number,
  detail: Record<string, number>,
): DetectedFlag {
  return {
    signalId: series.signalId,
    deviceId: series.deviceId,
    reason,
    fromMs: readings[from]!.ts,
    toMs: readings[to]!.ts + step,
    readings: to - from + 1,
    detail,
  };
}

/** Detail keys that count something: merged flags add them up; every other figure keeps its extreme. */
const SUMMED_DETAIL = new Set(['missing', 'runs', 'spikes']);

/**
 * Merges the flags of one reason on one signal that overlap or touch into one, adding up readings and
 * counts and keeping each other figure's largest magnitude; clamps every period to the day.
 */
export function mergeFlags(flags: DetectedFlag[], dayStartMs: number, dayEndMs: number): DetectedFlag[] {
  const groups = new Map<string, DetectedFlag[]>();
  for (const f of flags) {
    const key = `${f.signalId}|${f.deviceId}|${f.reason}`;
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const out: DetectedFlag[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => a.fromMs - b.fromMs);
    let cur: DetectedFlag | null = null;
    for (const f of list) {
      const clamped = {
        ...f,
        detail: { ...f.detail },
        fromMs: Math.max(f.fromMs, dayStartMs),
        toMs: Math.min(f.toMs, dayEndMs),
      };
      if (clamped.toMs <= clamped.fromMs) clamped.toMs = clamped.fromMs + 1;
      if (cur && clamped.fromMs <= cur.toMs) {
        cur.toMs = Math.max(cur.toMs, clamped.toMs);
        cur.readings += clamped.readings;
        for (const [k, v] of Object.entries(clamped.detail)) {
          const old = cur.detail[k];
          if (old === undefined) cur.detail[k] = v;
          else if (SUMMED_DETAIL.has(k)) cur.detail[k] = old + v;
          else if (Math.abs(v) > Math.abs(old)) cur.detail[k] = v;
        }
      } else {
        if (cur) out.push(cur);
        cur = clamped;
      }
    }
    if (cur) out.push(cur);
  }
  return out.sort((a, b) => a.fromMs - b.fromMs || a.reason.localeCompare(b.reason));
}

/**
 * Groups consecutive indexes where `test` holds into runs [from, to] of at least `minLength` items;
 * O(n).
 */
export function runsWhere(n: number, test: (i: number) => boolean, minLength = 1): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const ok = i < n && test(i);
    if (ok && start < 0) start = i;
    else if (!ok && start >= 0) {
      if (i - start >= minLength) runs.push([start, i - 1]);
      start = -1;
    }
  }
  return runs;
}
