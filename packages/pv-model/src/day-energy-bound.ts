/**
 * The most energy a PV plant can deliver in one day, the one bound both the KPI engine (which refuses such
 * a day's energy) and the data-quality detector (which flags it) apply, so that a day one refuses is exactly
 * a day the other flags (docs/kpi.md "day_energy_impossible", docs/data-quality.md).
 */
import { sunPosition } from './sun-position';

/**
 * The sun's centre this far below the horizon still counts as daylight: refraction at the horizon and the
 * sun's radius (0.83° together, the sunrise definition of NOAA and of pvlib's
 * solarposition.sun_rise_set_transit_spa) plus a margin for the terrain and a tracker's backtracking.
 */
export const DAYLIGHT_ELEVATION_DEG = -1;

/**
 * The margin over AC capacity × daylight hours before a day's energy is impossible. Inverters may run a few
 * per cent above nameplate and the AC capacity entered is often rounded down; 1.2 is the telemetry store's
 * counter margin (apps/server telemetry-store/aggregate.ts COUNTER_RATE_MARGIN), so the day bound is never
 * tighter than its steps'.
 */
export const DAY_ENERGY_MARGIN = 1.2;

/** Instants between which the sun is sampled coarsely: an hour of 5-minute boundaries. */
const COARSE_STEP = 12;

/** A stretch of time the bound judges: a KPI interval, or one 5-minute step of a detector's day. */
export interface DaylightInterval {
  startMs: number;
  durationMs: number;
}

/**
 * Hours of daylight in the intervals: each counted whole when the sun's centre stands above
 * DAYLIGHT_ELEVATION_DEG at its start or end (sunPosition, Meeus). The sun is sampled every hour of
 * boundaries and, only around a change (sunrise, sunset), at each boundary between: about 50 positions a day
 * instead of 289, since every KPI day computed pays for them. Without a location every hour counts, so the
 * bound falls back to AC capacity × the hours elapsed.
 */
export function daylightHours(
  intervals: readonly DaylightInterval[],
  location: { latitude: number; longitude: number } | null,
): number {
  if (location === null) return intervals.reduce((h, iv) => h + iv.durationMs, 0) / 3_600_000;
  const instants = boundaries(intervals);
  const last = instants.length - 1;
  const up = new Array<boolean | undefined>(instants.length);
  const sample = (k: number) =>
    (up[k] ??=
      sunPosition(instants[k]!, location.latitude, location.longitude).elevationDeg > DAYLIGHT_ELEVATION_DEG);
  for (let a = 0; a < last; a += COARSE_STEP) {
    const b = Math.min(a + COARSE_STEP, last);
    const same = sample(a) === sample(b);
    // Between two samples that agree the sun is taken not to have crossed (it rises and sets once a day).
    for (let k = a + 1; k < b; k++)
      if (same) up[k] = up[a];
      else sample(k);
  }
  if (last === 0) sample(0);
  const at = new Map<number, boolean>();
  for (let k = 0; k <= last; k++) at.set(instants[k]!, up[k]!);
  let ms = 0;
  for (const { startMs, durationMs } of intervals)
    if (at.get(startMs) || at.get(startMs + durationMs)) ms += durationMs;
  return ms / 3_600_000;
}

/** The 5-minute intervals that tile [startMs, endMs) (a local day of 23, 24 or 25 hours), the last one cut at endMs. */
export function fiveMinuteIntervals(startMs: number, endMs: number): DaylightInterval[] {
  const out: DaylightInterval[] = [];
  for (let t = startMs; t < endMs; t += 300_000)
    out.push({ startMs: t, durationMs: Math.min(300_000, endMs - t) });
  return out;
}

/** The intervals' starts and ends, sorted, each once (one pass when they follow one another, as a day's do). */
function boundaries(intervals: readonly DaylightInterval[]): number[] {
  const out: number[] = [];
  let contiguous = true;
  for (const { startMs, durationMs } of intervals) {
    if (out.length && out[out.length - 1] !== startMs) contiguous = false;
    if (!out.length) out.push(startMs);
    out.push(startMs + durationMs);
  }
  if (contiguous) return out;
  return [...new Set(intervals.flatMap((iv) => [iv.startMs, iv.startMs + iv.durationMs]))].sort(
    (a, b) => a - b,
  );
}

/**
 * The most energy a plant (or a device, given its rating) can deliver in a day: AC capacity × daylight
 * hours × DAY_ENERGY_MARGIN (the AC limit bounds what leaves the inverters whatever the irradiance, and no
 * PV plant delivers at night). Null without an AC capacity: nothing to judge by.
 */
export function dayEnergyLimitKwh(acCapacityKw: number | null, hours: number): number | null {
  return acCapacityKw !== null && acCapacityKw > 0 ? acCapacityKw * hours * DAY_ENERGY_MARGIN : null;
}

/** Whether a day's energy is above what the plant could have delivered (dayEnergyLimitKwh). */
export function isDayEnergyImpossible(energyKwh: number | null, limitKwh: number | null): boolean {
  return energyKwh !== null && limitKwh !== null && energyKwh > limitKwh;
}
