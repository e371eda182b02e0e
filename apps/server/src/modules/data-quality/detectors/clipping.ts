import { flagOver, round, runsWhere, stepMs } from './common';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** A plateau this close to the day's highest power … */
export const CLIPPING_LEVEL_SHARE = 0.98;
/** … whose readings move less than this share of it from one to the next … */
export const CLIPPING_FLAT_SHARE = 0.005;
/** … for at least this many readings (15 min at 5-minute data) is clipping. */
export const CLIPPING_MIN_READINGS = 3;
/** With a known rating, the plateau must be at least this share of it (a cloudy day's flat top is not clipping). */
export const CLIPPING_MIN_RATING_SHARE = 0.8;

/**
 * Clipping: AC power held flat at the inverter's limit — readings within 2 % of the day's highest power
 * that move less than 0.5 % of it between neighbours, for at least three readings, at a level of at least
 * 80 % of the rating when known. The geometric idea of pvanalytics `features.clipping.geometric` (flat
 * derivative near the daily maximum) with the single level of `clipping.levels`, for one inverter and one
 * day. Not a fault (informational reason 'clipping'): methods that need unclipped data exclude it.
 * `detail`: levelKw, ratedPowerKw when known.
 */
export function detectClipping(series: SignalSeries, _plant: PlantDay): DetectedFlag[] {
  if (series.kind !== 'ac_power') return [];
  const r = series.readings;
  const step = stepMs(series);
  if (step === null || r.length < CLIPPING_MIN_READINGS) return [];
  let level = -Infinity;
  for (const x of r) if (x.value > level) level = x.value;
  if (!(level > 0)) return [];
  if (series.ratedPowerKw !== null && level < CLIPPING_MIN_RATING_SHARE * series.ratedPowerKw) return [];
  const high = (i: number): boolean => r[i]!.value >= CLIPPING_LEVEL_SHARE * level;
  const flat = (i: number): boolean =>
    (i > 0 && high(i - 1) && Math.abs(r[i]!.value - r[i - 1]!.value) <= CLIPPING_FLAT_SHARE * level) ||
    (i < r.length - 1 &&
      high(i + 1) &&
      Math.abs(r[i + 1]!.value - r[i]!.value) <= CLIPPING_FLAT_SHARE * level);
  return runsWhere(r.length, (i) => high(i) && flat(i), CLIPPING_MIN_READINGS).map(([from, to]) =>
    flagOver(series, 'clipping', r, from, to, step, {
      levelKw: round(level),
      ...(series.ratedPowerKw !== null ? { ratedPowerKw: series.ratedPowerKw } : {}),
    }),
  );
}
