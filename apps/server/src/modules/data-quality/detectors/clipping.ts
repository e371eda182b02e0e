import { flagOver, round, runsWhere, stepMs } from './common';
import { sunDay, sunIndex } from './sun';
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
 * Over the plateau the clear-sky irradiance must change by at least 5 % and three times as much as the
 * power does: the rounded top of an unclipped clear day is flat too, but only where the sun is flat.
 */
export const CLIPPING_MIN_SUN_CHANGE = 0.05;

/**
 * Clipping: AC power held flat at the inverter's limit — readings within 2 % of the day's highest power
 * that move less than 0.5 % of it between neighbours, for at least three readings, at a level of at least
 * 80 % of the rating when known. The geometric idea of pvanalytics `features.clipping.geometric` (flat
 * derivative near the daily maximum) with the single level of `clipping.levels`, for one inverter and one
 * day; the rounded top of an unclipped clear day is told apart by the sun, whose clear-sky irradiance must
 * change over the plateau by at least 5 % and three times as much as the power. Not a fault (informational reason 'clipping'): methods that need unclipped data exclude it.
 * `detail`: levelKw, ratedPowerKw when known.
 */
export function detectClipping(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
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
  const sun = sunDay(plant);
  const clear = sun.clearPoaWm2;
  const changes = ([from, to]: [number, number]): boolean => {
    let pMin = Infinity;
    let pMax = -Infinity;
    let gMin = Infinity;
    let gMax = -Infinity;
    for (let i = from; i <= to; i++) {
      pMin = Math.min(pMin, r[i]!.value);
      pMax = Math.max(pMax, r[i]!.value);
      const g = clear[sunIndex(sun, r[i]!.ts)]!;
      gMin = Math.min(gMin, g);
      gMax = Math.max(gMax, g);
    }
    const sunChange = gMax > 0 ? (gMax - gMin) / gMax : 0;
    return sunChange >= CLIPPING_MIN_SUN_CHANGE && sunChange >= (3 * (pMax - pMin)) / level;
  };
  const runs = runsWhere(r.length, (i) => high(i) && flat(i), CLIPPING_MIN_READINGS).filter(changes);
  return runs.map(([from, to]) =>
    flagOver(series, 'clipping', r, from, to, step, {
      levelKw: round(level),
      ...(series.ratedPowerKw !== null ? { ratedPowerKw: series.ratedPowerKw } : {}),
    }),
  );
}
