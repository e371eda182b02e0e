import { dateOfDay, dayNumber } from './dates';
import { median, normalDraw, quantile, seededRandom, theilSen } from './stats';

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
}

export interface SoilingInterval {
  from: string;
  to: string;
  /** Fitted soiling rate, fraction per day (≤ 0; 0 when the interval rose or stayed flat). */
  ratePerDay: number;
  /** True when the interval had enough days to be fitted. */
  fitted: boolean;
}

export type SoilingResult =
  | {
      status: 'ok';
      /** The soiling ratio (1 clean) per usable day of a fitted interval. */
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
      from: string;
      to: string;
    }
  | { status: 'insufficient_data'; from: string | null; to: string | null; spanDays: number };

/** Usable days on either side of a candidate recovery whose medians are compared. */
const RISE_WINDOW = 5;
/** The smallest recovery counted, whatever the noise: 2 % of the median performance. */
const MIN_RECOVERY = 0.02;

interface FittedInterval {
  start: number;
  end: number;
  rate: number;
  rateSigma: number;
  fitted: boolean;
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
 *    soiling rate per day (a rising interval has rate 0: no soiling found there, as SRR treats it);
 * 4. the ratio on a day is 1 + rate × days since the interval began (a recovery is assumed to clean fully —
 *    the simplification against SRR, which also draws partial recoveries); days of short intervals are
 *    not estimated;
 * 5. the uncertainty is Monte-Carlo: each interval's rate is drawn from a normal whose σ is Sen's 95 %
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
  const insufficient: SoilingResult = { status: 'insufficient_data', from, to, spanDays };
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
  const intervals: FittedInterval[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const start = bounds[k]!;
    const end = bounds[k + 1]!;
    if (end <= start) continue;
    const fit = end - start >= minDays ? theilSen(x.slice(start, end), y.slice(start, end)) : null;
    const y0 = fit ? fit.intercept + fit.slope * x[start]! : 0;
    if (!fit || !(y0 > 0)) {
      intervals.push({ start, end, rate: 0, rateSigma: 0, fitted: false });
      continue;
    }
    intervals.push({
      start,
      end,
      rate: Math.min(0, fit.slope / y0),
      rateSigma: (fit.slopeHigh - fit.slopeLow) / 3.92 / y0,
      fitted: true,
    });
  }
  if (!intervals.some((iv) => iv.fitted)) return insufficient;

  const evaluate = (rates: readonly number[]) => {
    let loss = 0;
    let weighted = 0;
    let weight = 0;
    intervals.forEach((iv, k) => {
      if (!iv.fitted) return;
      for (let i = iv.start; i < iv.end; i++) {
        const ratio = Math.min(1, Math.max(0, 1 + rates[k]! * (x[i]! - x[iv.start]!)));
        const expected = Math.max(0, usable[i]!.expectedEnergyKwh);
        loss += expected * (1 - ratio);
        weighted += expected * ratio;
        weight += expected;
      }
    });
    return { loss, meanRatio: weight > 0 ? weighted / weight : 1 };
  };
  const central = evaluate(intervals.map((iv) => iv.rate));
  const random = seededRandom(options.seed ?? 1);
  const losses: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < reps; r++) {
    const drawn = intervals.map((iv) => Math.min(0, iv.rate + iv.rateSigma * normalDraw(random)));
    const e = evaluate(drawn);
    losses.push(e.loss);
    ratios.push(e.meanRatio);
  }
  const series: { date: string; ratio: number }[] = [];
  for (const iv of intervals) {
    if (!iv.fitted) continue;
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
    })),
    recoveries: starts.map((i) => usable[i]!.date),
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
