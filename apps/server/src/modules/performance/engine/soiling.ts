import { dateOfDay, dayNumber } from './dates';
import {
  autocorrelation,
  median,
  normalDraw,
  normalQuantile,
  quantile,
  seededRandom,
  theilSen,
} from './stats';

/** One local day's performance and the energy the clean model expected. */
export interface SoilingDay {
  date: string;
  /** Temperature-corrected performance index (energy / model energy before soiling), null when unknown. */
  performanceIndex: number | null;
  /** The model's expected energy of the day, kWh. */
  expectedEnergyKwh: number;
  /** True when the day carries a data-quality flag and is left out. */
  excluded?: boolean;
}

export interface SoilingOptions {
  /** Fewest usable days an interval between recoveries needs to be fitted (SRR's min_interval_length, 7). */
  minIntervalDays?: number;
  /**
   * Smallest rise of the smoothed, normalised index from one usable day to the next that counts as a
   * cleaning or a rain (fraction). By default inferred from the data (see soilingStochasticRateRecovery).
   */
  recoveryThreshold?: number;
  /** Monte-Carlo repetitions, 500 by default. */
  reps?: number;
  seed?: number;
  /** Local dates (inclusive) whose share of the loss is answered too, with its own interval (`period`). */
  period?: { from: string; to: string };
}

/** The loss over `SoilingOptions.period`, from the same Monte-Carlo draws as the whole answer's. */
export interface SoilingPeriodLoss {
  lossKwh: number;
  lossKwhLow: number;
  lossKwhHigh: number;
  /** Days of the period the loss is estimated on (those of significant intervals). */
  daysEstimated: number;
}

export interface SoilingInterval {
  from: string;
  to: string;
  /** Fitted soiling rate, fraction per day (≤ 0; 0 when the interval rose or stayed flat). */
  ratePerDay: number;
  /** True when the interval had enough days to be fitted. */
  fitted: boolean;
  /**
   * True when its decline is told apart from noise: its slope interval (Bonferroni over the intervals
   * tested) lies wholly below 0 and the decline over the interval reaches the recovery threshold.
   */
  significant: boolean;
}

/** What every answer says about the data it rests on. */
interface SoilingSpan {
  /** First and last usable day (local dates), null without any. */
  from: string | null;
  to: string | null;
  /** Days from the first to the last usable day. */
  spanDays: number;
  /** Usable days (not excluded, with a performance index) in the span. */
  usableDays: number;
}

export type SoilingResult =
  | ({
      status: 'ok';
      /** The soiling ratio (1 clean) per usable day of a significant interval. */
      series: { date: string; ratio: number }[];
      /** Expected-energy-weighted mean ratio over the estimated days, with its 95 % Monte-Carlo interval. */
      meanRatio: number;
      meanRatioLow: number;
      meanRatioHigh: number;
      /** Σ expected × (1 − ratio) over the estimated days, kWh, with its 95 % Monte-Carlo interval. */
      lossKwh: number;
      lossKwhLow: number;
      lossKwhHigh: number;
      intervals: SoilingInterval[];
      /** First days after a recovery (cleaning or rain). */
      recoveries: string[];
      /** Days the loss is estimated on (those of significant intervals): the series' length. */
      daysUsed: number;
      /** Confidence level of the loss and mean ratio intervals (0.95). */
      confidenceLevel: number;
      /** The loss over the period asked for; null without one. */
      period: SoilingPeriodLoss | null;
      from: string;
      to: string;
    } & SoilingSpan)
  | ({
      /**
       * Enough data, but no fitted interval's decline is significant: the soiling, if any, cannot be told
       * from the day-to-day noise, so no loss is answered (not 0, and not a guess).
       */
      status: 'not_detected';
      from: string;
      to: string;
      /** Days of the fitted intervals, each tested and none significant. */
      daysUsed: number;
      intervalsTested: number;
      recoveries: string[];
    } & SoilingSpan)
  | ({
      status: 'insufficient_data';
      /** Usable days one interval needs to be fitted. */ daysNeeded: number;
    } & SoilingSpan);

/** Usable days on either side of a candidate recovery whose medians are compared. */
const RISE_WINDOW = 5;
/** The smallest recovery counted, whatever the noise: 2 % of the median performance. */
const MIN_RECOVERY = 0.02;
/** The chance, over all intervals of an answer, that noise passes the significance test. */
const SIGNIFICANCE = 0.05;

/**
 * n/n*, the factor by which serial correlation inflates the variance of a trend statistic, for AR(1)
 * residuals of the line: (1 + ρ₁)/(1 − ρ₁), ρ₁ held within 0 … 0.95 (see its use in
 * soilingStochasticRateRecovery).
 */
function serialVarianceFactor(
  xs: readonly number[],
  ys: readonly number[],
  line: { slope: number; intercept: number },
): number {
  const residuals = xs.map((xi, i) => ys[i]! - (line.intercept + line.slope * xi));
  const rho = Math.min(0.95, Math.max(0, autocorrelation(residuals, 1)[1] ?? 0));
  return (1 + rho) / (1 - rho);
}

interface FittedInterval {
  start: number;
  end: number;
  rate: number;
  rateSigma: number;
  fitted: boolean;
  significant: boolean;
}

/**
 * Soiling ratio and soiling loss, a simplified form of the stochastic rate-and-recovery method (RdTools
 * `soiling_srr`; Deceglie, Micheli & Muller 2018, "Quantifying soiling loss directly from PV yield", IEEE J.
 * Photovolt. 8(2):547):
 * 1. the daily performance index is normalised by its median;
 * 2. a recovery (cleaning or rain) on day i is a rise of the median of the 5 usable days from i over the
 *    median of the 5 before, above the threshold — by default Q3 + 3·IQR of all such rises (≈ 4.7 σ of the
 *    day-to-day noise, so noise alone almost never passes), and at least 2 % — rises closer than 5 days are
 *    one event, at its largest rise;
 * 3. each interval between recoveries with at least `minIntervalDays` usable days gets a Theil-Sen line of the
 *    raw normalised index against time; its slope over the line's value at the interval's first day is the
 *    soiling rate per day, counted only when Sen's 95 % slope interval lies wholly below 0 (significant);
 *    any other interval (rising, flat, or a decline the noise could make) has rate 0: no soiling found
 *    there. Significant means: the slope interval, at 1 − 0.05/k for the k intervals tested (Bonferroni),
 *    lies wholly below 0, and the decline over the interval reaches the recovery threshold. With no
 *    significant interval the answer is `not_detected`, not a loss;
 * 4. the ratio on a day is 1 + rate × days since the interval began (a recovery is assumed to clean fully —
 *    the simplification against SRR, which also draws partial recoveries); days of short or not
 *    significant intervals are not estimated (SRR's invalid intervals);
 * 5. the uncertainty is Monte-Carlo: each significant interval's rate is drawn from a normal whose σ is Sen's 95 %
 *    slope interval / 3.92, `reps` times (seeded), and the 2.5 and 97.5 percentiles of the loss and mean
 *    ratio are the interval answered.
 * Loss = Σ expected energy × (1 − ratio) over the estimated days.
 */
export function soilingStochasticRateRecovery(
  days: readonly SoilingDay[],
  options: SoilingOptions = {},
): SoilingResult {
  const minDays = options.minIntervalDays ?? 7;
  const reps = options.reps ?? 500;
  const usable = days
    .filter(
      (d) =>
        !d.excluded &&
        d.performanceIndex !== null &&
        d.performanceIndex > 0 &&
        Number.isFinite(d.performanceIndex),
    )
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const from = usable[0]?.date ?? null;
  const to = usable[usable.length - 1]?.date ?? null;
  const spanDays = from && to ? dayNumber(to) - dayNumber(from) : 0;
  const span = { from, to, spanDays, usableDays: usable.length };
  const insufficient: SoilingResult = { status: 'insufficient_data', ...span, daysNeeded: minDays };
  if (usable.length < minDays) return insufficient;
  const x = usable.map((d) => dayNumber(d.date));
  const scale = median(usable.map((d) => d.performanceIndex!));
  const y = usable.map((d) => d.performanceIndex! / scale);
  // The rise at day i: the median of days i…i+4 against the median of days i−5…i−1 (both of usable days).
  const rises: number[] = [];
  for (let i = 1; i < y.length; i++)
    rises.push(median(y.slice(i, i + RISE_WINDOW)) - median(y.slice(Math.max(0, i - RISE_WINDOW), i)));
  const q1 = quantile(rises, 0.25);
  const q3 = quantile(rises, 0.75);
  const threshold = options.recoveryThreshold ?? Math.max(MIN_RECOVERY, q3 + 3 * (q3 - q1));
  // Indexes (into usable) of the first day after each recovery.
  const starts: number[] = [];
  for (let i = 1; i < y.length; i++) {
    if (rises[i - 1]! <= threshold) continue;
    const last = starts[starts.length - 1];
    if (last !== undefined && x[i]! - x[last]! < RISE_WINDOW) {
      if (rises[i - 1]! > rises[last - 1]!) starts[starts.length - 1] = i;
    } else starts.push(i);
  }
  const bounds = [0, ...starts, usable.length];
  // Every interval long enough is tested; the family of tests keeps a 5 % chance that noise makes any one
  // of them look significant (Bonferroni: each at 1 − 0.05/k).
  let tested = 0;
  for (let k = 0; k + 1 < bounds.length; k++) if (bounds[k + 1]! - bounds[k]! >= minDays) tested++;
  const level = 1 - SIGNIFICANCE / Math.max(1, tested);
  const z = normalQuantile(0.5 + level / 2);
  const intervals: FittedInterval[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const start = bounds[k]!;
    const end = bounds[k + 1]!;
    if (end <= start) continue;
    const xs = x.slice(start, end);
    const ys = y.slice(start, end);
    // Sen's slope interval assumes independent residuals. Within an interval they are not when the line
    // misses part of the truth: rains that clean a little and are too small to count as recoveries make the
    // residuals a saw-tooth. The simulator's soiled plant showed it: an interval of 76 days holding two
    // such rains had lag-1 residual autocorrelation 0.59, was fitted at −0.125 %/day against a truth that
    // fell and recovered, and its loss interval (from the uncorrected slope interval) missed the true loss.
    // The variance of the pairwise-slope statistic is therefore scaled by n/n* = (1 + ρ₁)/(1 − ρ₁), the
    // effective sample size of AR(1) residuals (Bayley & Hammersley 1946), the correction Yue & Wang (2004,
    // "The Mann-Kendall test modified by effective sample size to detect trend in serially correlated
    // hydrological series", Water Resour. Manage. 18:201) apply to the Mann-Kendall statistic Sen's interval
    // is built on. ρ₁ is of the residuals of the uncorrected line, held within 0 … 0.95 (a negative one
    // would narrow the interval on noise; 0.95 keeps n* above 2.5 % of n).
    const plain = end - start >= minDays ? theilSen(xs, ys, level) : null;
    const fit = plain && theilSen(xs, ys, level, serialVarianceFactor(xs, ys, plain));
    const y0 = fit ? fit.intercept + fit.slope * x[start]! : 0;
    if (!fit || !(y0 > 0)) {
      intervals.push({ start, end, rate: 0, rateSigma: 0, fitted: false, significant: false });
      continue;
    }
    // The significance test. Noise alone gives a negative slope half the time, and before this test every
    // such slope was counted as soiling (a clean simulated plant showed 741 kWh over 25 months). RdTools'
    // SRR caps each slope's upper bound at 0 and rejects an interval whose relative slope interval is
    // 500 % or wider (`max_relative_slope_error`); here, stricter, an interval soils only when
    // 1. its whole slope interval (at the family's level above) lies below 0, and
    // 2. its decline over its length reaches the recovery threshold: a smaller one is within the noise the
    //    recoveries are told from, and is what a clean plant's slow drifts look like (the season's model
    //    mismatch, degradation: a clean year showed −0.003 %/day over 243 days, 0.6 % in all).
    const rate = fit.slope / y0;
    const significant = fit.slopeHigh < 0 && -rate * (x[end - 1]! - x[start]!) >= threshold;
    intervals.push({
      start,
      end,
      rate: significant ? rate : 0,
      rateSigma: significant ? (fit.slopeHigh - fit.slopeLow) / (2 * z) / y0 : 0,
      fitted: true,
      significant,
    });
  }
  if (!intervals.some((iv) => iv.fitted)) return insufficient;
  const daysUsed = intervals.reduce((n, iv) => n + (iv.significant ? iv.end - iv.start : 0), 0);
  const daysTested = intervals.reduce((n, iv) => n + (iv.fitted ? iv.end - iv.start : 0), 0);
  if (!intervals.some((iv) => iv.significant))
    return {
      status: 'not_detected',
      ...span,
      from: from!,
      to: to!,
      daysUsed: daysTested,
      intervalsTested: intervals.filter((iv) => iv.fitted).length,
      recoveries: starts.map((i) => usable[i]!.date),
    };

  const period = options.period;
  const inPeriod = (date: string) => period !== undefined && period.from <= date && date <= period.to;
  const evaluate = (rates: readonly number[]) => {
    let loss = 0;
    let periodLoss = 0;
    let weighted = 0;
    let weight = 0;
    intervals.forEach((iv, k) => {
      if (!iv.significant) return;
      for (let i = iv.start; i < iv.end; i++) {
        const ratio = Math.min(1, Math.max(0, 1 + rates[k]! * (x[i]! - x[iv.start]!)));
        const expected = Math.max(0, usable[i]!.expectedEnergyKwh);
        loss += expected * (1 - ratio);
        if (inPeriod(usable[i]!.date)) periodLoss += expected * (1 - ratio);
        weighted += expected * ratio;
        weight += expected;
      }
    });
    return { loss, periodLoss, meanRatio: weight > 0 ? weighted / weight : 1 };
  };
  const central = evaluate(intervals.map((iv) => iv.rate));
  const random = seededRandom(options.seed ?? 1);
  const losses: number[] = [];
  const periodLosses: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < reps; r++) {
    const drawn = intervals.map((iv) => Math.min(0, iv.rate + iv.rateSigma * normalDraw(random)));
    const e = evaluate(drawn);
    losses.push(e.loss);
    periodLosses.push(e.periodLoss);
    ratios.push(e.meanRatio);
  }
  let periodDays = 0;
  for (const iv of intervals)
    if (iv.significant) for (let i = iv.start; i < iv.end; i++) if (inPeriod(usable[i]!.date)) periodDays++;
  const series: { date: string; ratio: number }[] = [];
  for (const iv of intervals) {
    if (!iv.significant) continue;
    for (let i = iv.start; i < iv.end; i++)
      series.push({
        date: usable[i]!.date,
        ratio: Math.min(1, Math.max(0, 1 + iv.rate * (x[i]! - x[iv.start]!))),
      });
  }
  return {
    status: 'ok',
    series,
    meanRatio: central.meanRatio,
    meanRatioLow: quantile(ratios, 0.025),
    meanRatioHigh: quantile(ratios, 0.975),
    lossKwh: central.loss,
    lossKwhLow: quantile(losses, 0.025),
    lossKwhHigh: quantile(losses, 0.975),
    intervals: intervals.map((iv) => ({
      from: usable[iv.start]!.date,
      to: usable[iv.end - 1]!.date,
      ratePerDay: iv.rate,
      fitted: iv.fitted,
      significant: iv.significant,
    })),
    recoveries: starts.map((i) => usable[i]!.date),
    daysUsed,
    confidenceLevel: 0.95,
    period: period
      ? {
          lossKwh: central.periodLoss,
          lossKwhLow: quantile(periodLosses, 0.025),
          lossKwhHigh: quantile(periodLosses, 0.975),
          daysEstimated: periodDays,
        }
      : null,
    ...span,
    from: from!,
    to: to!,
  };
}

export interface PaybackInput {
  /** The soiling answer; its last interval is the one running now. */
  soiling: Extract<SoilingResult, { status: 'ok' }>;
  /** Expected energy per date (kWh), for the days since the last recovery. */
  expectedByDate: ReadonlyMap<string, number>;
  /** What one cleaning of the plant costs, in the plant's currency. */
  cleaningCost: number;
  /** What a kWh sells for, same currency. */
  energyPricePerKwh: number;
  /** Days to project past the data with the current rate; 365 by default. */
  horizonDays?: number;
}

export interface Payback {
  /** The first day whose accumulated soiling loss since the last recovery is worth the cleaning cost. */
  date: string | null;
  /** True when the date lies beyond the data, projected with the current rate and mean expected energy. */
  projected: boolean;
  /** Money lost to soiling since the last recovery up to the last day of data. */
  lostSinceRecovery: number;
}

/**
 * When a cleaning would have paid for itself: from the start of the current soiling interval, the money lost
 * Σ price × expected × (1 − ratio) accumulates day by day; the first day it reaches the cleaning cost is the
 * answer. When the data ends first, the current rate and the interval's mean daily expected energy carry it
 * forward up to `horizonDays` (projected). Null when the plant does not soil now or never pays back within
 * the horizon. (The break-even idea of cleaning schedules: Deceglie et al. 2018 §V; Micheli et al. 2017.)
 */
export function cleaningPayback(input: PaybackInput): Payback {
  const { soiling, cleaningCost, energyPricePerKwh } = input;
  const horizon = input.horizonDays ?? 365;
  const current = soiling.intervals[soiling.intervals.length - 1];
  if (!current?.fitted || !(current.ratePerDay < 0) || !(energyPricePerKwh > 0))
    return { date: null, projected: false, lostSinceRecovery: 0 };
  const startDay = dayNumber(current.from);
  const endDay = dayNumber(current.to);
  let money = 0;
  let expectedSum = 0;
  let expectedDays = 0;
  for (let day = startDay; day <= endDay; day++) {
    const expected = input.expectedByDate.get(dateOfDay(day));
    if (expected === undefined) continue;
    expectedSum += expected;
    expectedDays++;
    money += energyPricePerKwh * expected * -Math.max(-1, current.ratePerDay * (day - startDay));
    if (money >= cleaningCost) return { date: dateOfDay(day), projected: false, lostSinceRecovery: money };
  }
  const lostSinceRecovery = money;
  const meanExpected = expectedDays > 0 ? expectedSum / expectedDays : 0;
  for (let day = endDay + 1; day <= endDay + horizon && meanExpected > 0; day++) {
    money += energyPricePerKwh * meanExpected * -Math.max(-1, current.ratePerDay * (day - startDay));
    if (money >= cleaningCost) return { date: dateOfDay(day), projected: true, lostSinceRecovery };
  }
  return { date: null, projected: true, lostSinceRecovery };
}
