import { POWER_KINDS, SOLAR_KINDS, flagOver, round, runsWhere, stepMs } from './common';
import { elevationAt, sunDay } from './sun';
import type { DetectedFlag, PlantDay, Reading, SignalSeries } from './types';

/** A value held this long while the sun is up is stuck (pvanalytics gaps.stale_values_diff uses 6 samples). */
export const STALE_MIN_MINUTES = 30;
/** Below this solar elevation the quantity may legitimately sit at zero or barely move. */
export const STALE_MIN_ELEVATION_DEG = 5;
/** A power plateau at or above this share of the rating is clipping (clipping.ts), not a stuck value. */
const CLIPPING_SHARE = 0.97;

/** Equal within pvanalytics' default tolerances (rtol 1e-5, atol 1e-8) of numpy.isclose. */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b);
}

/**
 * Stale values: the same value repeated for at least 30 minutes while the quantity must vary — irradiance or
 * power with the sun above 5°. The idea is pvanalytics `gaps.stale_values_diff` (consecutive differences
 * all within numpy.isclose tolerances over a window), restricted to daylight because night zeros are real.
 * Power runs at zero (an outage or a trip is real) or at the clipping level are not stale.
 * `detail`: the held value and how many minutes it was held.
 */
export function detectStale(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  if (!SOLAR_KINDS.has(series.kind)) return [];
  const r = series.readings;
  const step = stepMs(series);
  if (step === null || r.length < 2) return [];
  const sun = sunDay(plant);
  const isPower = POWER_KINDS.has(series.kind);
  const clipKw = series.ratedPowerKw !== null ? series.ratedPowerKw * CLIPPING_SHARE : Infinity;
  const minPairs = Math.max(2, Math.ceil((STALE_MIN_MINUTES * 60_000) / step));
  // Pair i is readings (i, i+1): both in daylight and equal.
  const pair = (i: number): boolean => {
    const a = r[i]!;
    const b = r[i + 1]!;
    if (!same(a.value, b.value)) return false;
    if (elevationAt(sun, a.ts) < STALE_MIN_ELEVATION_DEG || elevationAt(sun, b.ts) < STALE_MIN_ELEVATION_DEG)
      return false;
    if (isPower && (a.value === 0 || a.value >= clipKw)) return false;
    return true;
  };
  return runsWhere(r.length - 1, pair, minPairs)
    .filter(([from, to]) => r[to + 1]!.ts - r[from]!.ts >= STALE_MIN_MINUTES * 60_000)
    .map(([from, to]) => staleFlag(series, r, from, to + 1, step));
}

function staleFlag(series: SignalSeries, r: Reading[], from: number, to: number, step: number): DetectedFlag {
  return flagOver(series, 'stale', r, from, to, step, {
    value: r[from]!.value,
    minutes: round((r[to]!.ts - r[from]!.ts) / 60_000, 0),
  });
}

/** A counter that does not advance while its device produces at least this share of its rating. */
export const COUNTER_STALE_POWER_SHARE = 0.05;

/**
 * A stale counter: an energy counter holding its value for at least 30 minutes while the same device's
 * power stays above 5 % of its rating and the energy that power should have added (trapezoidal integral)
 * is at least 1 kWh and more than twice the counter's resolution — so a coarse register that ticks once an
 * hour is not called stuck. `detail`: the held value, minutes, and the energy the power implies.
 */
export function detectStaleCounter(counter: SignalSeries, power: SignalSeries): DetectedFlag[] {
  const r = counter.readings;
  const p = power.readings;
  const rating = counter.ratedPowerKw ?? power.ratedPowerKw;
  const step = stepMs(counter);
  if (rating === null || step === null || r.length < 2 || p.length < 2) return [];
  let resolution = Infinity;
  for (let i = 1; i < r.length; i++) {
    const d = r[i]!.value - r[i - 1]!.value;
    if (d > 1e-9 && d < resolution) resolution = d;
  }
  const minPairs = Math.max(2, Math.ceil((STALE_MIN_MINUTES * 60_000) / step));
  const flags: DetectedFlag[] = [];
  // Exact equality: a relative tolerance on a lifetime counter of 10⁵ kWh would hide real kWh steps.
  for (const [from, to0] of runsWhere(r.length - 1, (i) => r[i]!.value === r[i + 1]!.value, minPairs)) {
    const to = to0 + 1;
    const t0 = r[from]!.ts;
    const t1 = r[to]!.ts;
    if (t1 - t0 < STALE_MIN_MINUTES * 60_000) continue;
    const { energyKwh, minKw } = integrate(p, t0, t1);
    if (!(minKw >= COUNTER_STALE_POWER_SHARE * rating)) continue;
    if (energyKwh < 1 || energyKwh < 2 * (Number.isFinite(resolution) ? resolution : 0)) continue;
    flags.push(
      flagOver(counter, 'stale', r, from, to, step, {
        value: r[from]!.value,
        minutes: round((t1 - t0) / 60_000, 0),
        expectedKwh: round(energyKwh, 2),
      }),
    );
  }
  return flags;
}

/** Trapezoidal energy (kWh) of a power series over [t0, t1] and its smallest reading there; O(log n + k). */
function integrate(p: Reading[], t0: number, t1: number): { energyKwh: number; minKw: number } {
  let lo = 0;
  let hi = p.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (p[mid]!.ts < t0) lo = mid + 1;
    else hi = mid;
  }
  let energyKwh = 0;
  let minKw = Infinity;
  for (let i = lo; i < p.length && p[i]!.ts <= t1; i++) {
    minKw = Math.min(minKw, p[i]!.value);
    const next = p[i + 1];
    if (next && next.ts <= t1)
      energyKwh += ((p[i]!.value + next.value) / 2) * ((next.ts - p[i]!.ts) / 3_600_000);
  }
  return { energyKwh, minKw };
}
