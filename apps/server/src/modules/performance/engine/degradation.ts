import { DEGRADATION_MIN_SPAN_DAYS } from '@solar/shared';
import { dayNumber, monthsIn, oneYearLater } from './dates';
import { circularBlockLength, median, quantileSorted, seededRandom } from './stats';

/** Days the year-on-year method needs between the first and the last usable day (two years). */
export const YOY_MIN_SPAN_DAYS = DEGRADATION_MIN_SPAN_DAYS;
/** Months shown as needed when the span is too short. */
export const YOY_MONTHS_NEEDED = 24;

/** One local day of a plant or inverter. */
export interface NormalizedDay {
  /** Local date, YYYY-MM-DD. */
  date: string;
  /**
   * Energy over the model's temperature-corrected expected energy for that day; null when either is
   * missing.
   */
  normalizedEnergy: number | null;
  /** True when the day carries a data-quality flag (or is otherwise untrustworthy) and must not be paired. */
  excluded?: boolean;
}

export interface YoyOptions {
  /** Bootstrap resamples; 1000 by default. */
  reps?: number;
  /** Central probability of the interval, 0.682 by default (RdTools' default confidence_level 68.2). */
  confidenceLevel?: number;
  /** RNG seed, so an answer is the same on every call. */
  seed?: number;
  /** Pairs per bootstrap block; by default chosen from the pairs' autocorrelation (circularBlockLength). */
  blockLength?: number;
}

export type YoyResult =
  | {
      status: 'ok';
      /** Median of the year-on-year rates, % per year (negative: the output declines). */
      ratePctPerYear: number;
      ciLowPctPerYear: number;
      ciHighPctPerYear: number;
      confidenceLevel: number;
      /** Pairs of days one year apart the median rests on. */
      pairs: number;
      /** Consecutive pairs resampled together by the bootstrap (1: the pairs were independent enough). */
      blockLength: number;
      from: string;
      to: string;
      spanDays: number;
    }
  | {
      status: 'insufficient_data';
      from: string | null;
      to: string | null;
      spanDays: number;
      monthsFound: number;
      monthsNeeded: number;
    };

/**
 * Year-on-year degradation rate, after RdTools `degradation_year_on_year` (Jordan, Deline, Kurtz, Kimball &
 * Anderson 2018, "Robust PV degradation methodology and application", IEEE J. Photovolt. 8(2):525): every
 * usable day is paired with the same calendar day one year later, each pair gives a rate
 * 100 × (E_{t+1y} / E_t − 1) % per year, and the answer is the median of those rates — robust to soiling,
 * seasonal model error and outliers, since they mostly cancel between the pair's days.
 *
 * Its uncertainty is a circular block bootstrap of the pairs (Politis & Romano 1992, "A circular
 * block-resampling procedure for stationary data"; the time-series bootstrap RdTools offers as
 * `uncertainty_method='circular_block'`), not the plain bootstrap of RdTools' default 'simple' method: the
 * pairs of neighbouring days share their weather, their soiling and the model's errors of those weeks, so
 * they are far from independent, and resampling them one by one made a 68.2 % interval that held the truth
 * for none of the simulator's plant and inverters. Here the rates, in the order of their days, are cut into
 * blocks of `blockLength` consecutive pairs, chosen from the rates' own autocorrelation (Politis & White
 * 2004, stats.ts `circularBlockLength`), wrapped around the end; `reps` series of n rates are drawn block by
 * block and the interval is the central `confidenceLevel` of their medians (seeded, so deterministic).
 * Excluded days, days without a normalised energy and non-positive ones are left out. Fewer than two years
 * between the first and the last
 * usable day answers `insufficient_data` with the span that was found, as RdTools refuses it too.
 */
export function yearOnYearDegradation(days: readonly NormalizedDay[], options: YoyOptions = {}): YoyResult {
  const reps = options.reps ?? 1000;
  const level = options.confidenceLevel ?? 0.682;
  const usable = new Map<string, number>();
  for (const d of days)
    if (
      !d.excluded &&
      d.normalizedEnergy !== null &&
      d.normalizedEnergy > 0 &&
      Number.isFinite(d.normalizedEnergy)
    )
      usable.set(d.date, d.normalizedEnergy);
  const dates = [...usable.keys()].sort();
  const from = dates[0] ?? null;
  const to = dates[dates.length - 1] ?? null;
  const spanDays = from && to ? dayNumber(to) - dayNumber(from) : 0;
  const insufficient = (): YoyResult => ({
    status: 'insufficient_data',
    from,
    to,
    spanDays,
    monthsFound: monthsIn(spanDays),
    monthsNeeded: YOY_MONTHS_NEEDED,
  });
  if (spanDays < YOY_MIN_SPAN_DAYS) return insufficient();
  const rates: number[] = [];
  for (const date of dates) {
    const later = oneYearLater(date);
    const after = usable.get(later);
    if (after === undefined) continue;
    const years = (dayNumber(later) - dayNumber(date)) / 365;
    rates.push((100 * (after / usable.get(date)! - 1)) / years);
  }
  if (rates.length < 2) return insufficient();
  const blockLength = Math.min(
    Math.max(1, Math.round(options.blockLength ?? circularBlockLength(rates))),
    rates.length,
  );
  const random = seededRandom(options.seed ?? 1);
  const medians: number[] = [];
  const sample = new Array<number>(rates.length);
  for (let r = 0; r < reps; r++) {
    let i = 0;
    while (i < rates.length) {
      const start = Math.floor(random() * rates.length);
      for (let k = 0; k < blockLength && i < rates.length; k++, i++)
        sample[i] = rates[(start + k) % rates.length]!;
    }
    medians.push(median(sample));
  }
  medians.sort((a, b) => a - b);
  return {
    status: 'ok',
    ratePctPerYear: median(rates),
    ciLowPctPerYear: quantileSorted(medians, 0.5 - level / 2),
    ciHighPctPerYear: quantileSorted(medians, 0.5 + level / 2),
    confidenceLevel: level,
    pairs: rates.length,
    blockLength,
    from: from!,
    to: to!,
    spanDays,
  };
}
