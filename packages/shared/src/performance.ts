import { z } from 'zod';
import { calendarDateField, inOrder } from './dates';
import { V, requiredText } from './validation';

/**
 * Degradation, soiling and per-plant model calibration (apps/server/src/modules/performance,
 * docs/performance.md).
 */

/** Where a plant's expected-power parameters come from: PVWatts defaults, a design report, or a fit. */
export const MODEL_SOURCES = ['default', 'design', 'fitted'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];

/** Months of data the year-on-year degradation needs. */
export const DEGRADATION_MONTHS_NEEDED = 24;
/** Days between the first and the last usable day the year-on-year degradation needs (two years). */
export const DEGRADATION_MIN_SPAN_DAYS = 730;
/** Longest window a fit may read (a year of days). */
export const MODEL_FIT_MAX_DAYS = 366;
/** Loss factors a design may list. */
export const MODEL_LOSS_FACTORS_MAX = 20;

const degradationOk = z.object({
  status: z.literal('ok'),
  /** Median of the year-on-year rates, % per year (negative: output declines). */
  rate_pct_per_year: z.number(),
  ci_low_pct_per_year: z.number(),
  ci_high_pct_per_year: z.number(),
  /** Central probability of the bootstrap interval (0.682). */
  confidence_level: z.number(),
  pairs: z.number().int(),
  /**
   * Consecutive pairs the circular block bootstrap resamples together, chosen from the pairs'
   * autocorrelation (1: the pairs behaved as independent).
   */
  block_length: z.number().int(),
  from: z.string(),
  to: z.string(),
  span_days: z.number().int(),
});

const degradationInsufficient = z.object({
  status: z.literal('insufficient_data'),
  from: z.string().nullable(),
  to: z.string().nullable(),
  span_days: z.number().int(),
  months_found: z.number().int(),
  months_needed: z.number().int(),
});

/** A year-on-year degradation answer, or what data was found when there is too little. */
export const degradationResult = z.discriminatedUnion('status', [degradationOk, degradationInsufficient]);
export type DegradationResult = z.infer<typeof degradationResult>;

/** What every soiling answer says about the data it rests on. */
const soilingSpan = {
  /** First and last usable day (local dates); null without any. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Days from the first to the last usable day. */
  span_days: z.number().int(),
  /** Usable days in the span (not left out, with a performance index). */
  usable_days: z.number().int(),
};

export const soilingResult = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    ...soilingSpan,
    from: z.string(),
    to: z.string(),
    /** The soiling ratio (1 = clean) per estimated day. */
    ratio_series: z.array(z.object({ date: z.string(), ratio: z.number() })),
    mean_ratio: z.number(),
    mean_ratio_low: z.number(),
    mean_ratio_high: z.number(),
    /** Energy lost to soiling over the estimated days, kWh, with its interval (`confidence_level`). */
    loss_kwh: z.number(),
    loss_kwh_low: z.number(),
    loss_kwh_high: z.number(),
    /** Central probability of the loss and mean ratio intervals (0.95). */
    confidence_level: z.number(),
    /** Days the loss is estimated on (the ratio series' days). */
    days_used: z.number().int(),
    /** First days after a cleaning or a rain. */
    recoveries: z.array(z.string()),
    /** The current interval's soiling rate, fraction per day (≤ 0). */
    current_rate_per_day: z.number(),
  }),
  /** Enough data, but no interval declines significantly: no loss is answered (neither 0 nor a guess). */
  z.object({
    status: z.literal('not_detected'),
    ...soilingSpan,
    from: z.string(),
    to: z.string(),
    days_used: z.number().int(),
    intervals_tested: z.number().int(),
    recoveries: z.array(z.string()),
  }),
  z.object({
    status: z.literal('insufficient_data'),
    ...soilingSpan,
    /** Usable days one interval between recoveries needs. */
    days_needed: z.number().int(),
  }),
]);
export type SoilingResult = z.infer<typeof soilingResult>;

/**
 * The soiling loss over a period the caller names (the plant page's loss view: a day or a month), from the
 * same Monte-Carlo draws as the whole answer; a loss category carved out of the KPI's underperformance.
 * Without an estimate it says why, never 0: `insufficient_data` and `not_detected` are the whole answer's,
 * `not_estimated` when no day of the period lies in an interval with significant soiling.
 */
export const soilingPeriodLoss = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    from: z.string(),
    to: z.string(),
    loss_kwh: z.number(),
    loss_kwh_low: z.number(),
    loss_kwh_high: z.number(),
    confidence_level: z.number(),
    /** Days of the period the loss is estimated on, and its usable days. */
    days_estimated: z.number().int(),
    usable_days: z.number().int(),
  }),
  z.object({
    status: z.enum(['not_estimated', 'not_detected', 'insufficient_data']),
    from: z.string(),
    to: z.string(),
    usable_days: z.number().int(),
  }),
]);
export type SoilingPeriodLoss = z.infer<typeof soilingPeriodLoss>;

/** GET plants/{id}/performance?from&to: the period whose soiling loss is answered too (both or neither). */
export const plantPerformanceQuery = z
  .object({ from: calendarDateField().optional(), to: calendarDateField().optional() })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { error: V.required, path: ['to'] })
  .refine((q) => q.from === undefined || q.to === undefined || inOrder(q.from, q.to, false), {
    error: V.rangeOrder,
    path: ['to'],
  });
export type PlantPerformanceQuery = z.input<typeof plantPerformanceQuery>;

/** GET plants/{id}/performance */
export const plantPerformanceAnswer = z.object({
  plant_id: z.number().int(),
  /** Which model parameters the expected energy (and so the normalised energy and the KPIs) used. */
  model_source: z.enum(MODEL_SOURCES),
  /** The days read: local dates of the first and last day with data. */
  span: z.object({ from: z.string().nullable(), to: z.string().nullable(), days: z.number().int() }),
  /** Days left out of every method, by reason. */
  excluded_days: z.object({
    no_energy: z.number().int(),
    incomplete_data: z.number().int(),
    impossible_energy: z.number().int(),
  }),
  degradation: z.object({
    plant: degradationResult,
    inverters: z.array(
      z.object({ device_id: z.number().int(), name: z.string(), result: degradationResult }),
    ),
  }),
  soiling: soilingResult,
  /** The soiling loss over the period asked for (`from`, `to`); absent when none was asked. */
  soiling_period: soilingPeriodLoss.optional(),
  /** When cleaning would have paid for itself; null without a cleaning cost and energy price, or soiling. */
  payback: z
    .object({
      date: z.string().nullable(),
      /** True when the date lies past the data (the current rate carried forward). */
      projected: z.boolean(),
      lost_since_recovery: z.number(),
      cleaning_cost: z.number(),
      energy_price_per_kwh: z.number(),
      currency: z.string().nullable(),
    })
    .nullable(),
});
export type PlantPerformanceAnswer = z.infer<typeof plantPerformanceAnswer>;

/** One loss factor of a design report (PVsyst or SAM), as a fraction. */
export const modelLossFactor = z.object({
  name: requiredText(60),
  fraction: z
    .number({ error: V.invalidNumber })
    .min(0, { error: V.outOfRange })
    .max(0.5, { error: V.outOfRange }),
});
export type ModelLossFactor = z.infer<typeof modelLossFactor>;

/** GET plants/{id}/model: the parameters in force, their origin and uncertainty. */
export const plantModelAnswer = z.object({
  plant_id: z.number().int(),
  source: z.enum(MODEL_SOURCES),
  /** The lumped system loss the expected power applies (0.14 = 14 %). */
  system_loss_fraction: z.number(),
  temperature_coefficient_per_k: z.number(),
  /** Standard errors of a fit; null for defaults and designs. */
  system_loss_fraction_se: z.number().nullable(),
  temperature_coefficient_per_k_se: z.number().nullable(),
  loss_factors: z.array(modelLossFactor),
  inverter_efficiency: z.number().nullable(),
  ac_limit_kw: z.number().nullable(),
  fitted_from: z.string().nullable(),
  fitted_to: z.string().nullable(),
  fit_days: z.number().int().nullable(),
  fit_rmse_kwh: z.number().nullable(),
  cleaning_cost: z.number().nullable(),
  energy_price_per_kwh: z.number().nullable(),
  currency: z.string().nullable(),
  updated_by: z.number().int().nullable(),
  updated_at: z.string().nullable(),
});
export type PlantModelAnswer = z.infer<typeof plantModelAnswer>;

const fraction = (min: number, max: number) =>
  z.number({ error: V.invalidNumber }).min(min, { error: V.outOfRange }).max(max, { error: V.outOfRange });

/** Parameters from a design report; the lumped loss 1 − Π(1 − lᵢ)·η_inv must stay within 0…50 %. */
export const modelDesignBody = z
  .object({
    loss_factors: z.array(modelLossFactor).max(MODEL_LOSS_FACTORS_MAX, { error: V.tooMany }),
    /** Power temperature coefficient γ per kelvin (datasheet −0.29…−0.45 %/K). */
    temperature_coefficient_per_k: fraction(-0.01, 0),
    /** Weighted (European or CEC) inverter efficiency; null when the losses already hold it. */
    inverter_efficiency: fraction(0.5, 1).nullable(),
    ac_limit_kw: fraction(0, 10_000_000).nullable(),
  })
  .refine(
    (d) => d.loss_factors.reduce((kept, l) => kept * (1 - l.fraction), d.inverter_efficiency ?? 1) >= 0.5,
    { error: V.outOfRange, path: ['loss_factors'] },
  );

/**
 * PUT plants/{id}/model: `design` replaces the parameters with a design's (null keeps them, so the cleaning
 * cost can be saved alone); the cleaning cost and energy price feed the soiling payback.
 */
export const plantModelBody = z.object({
  design: modelDesignBody.nullable(),
  cleaning_cost: fraction(0, 1e9).nullable(),
  energy_price_per_kwh: fraction(0, 1000).nullable(),
  currency: z.string().trim().max(8, { error: V.tooLong }).nullable().default(null),
});
export type PlantModelBody = z.input<typeof plantModelBody>;

/** POST plants/{id}/model/fit: the plant's local days from `from` to `to` (inclusive) to fit on. */
export const plantModelFitBody = z
  .object({ from: calendarDateField(), to: calendarDateField() })
  .refine((b) => inOrder(b.from, b.to, false), { error: V.rangeOrder, path: ['to'] })
  .refine((b) => (Date.parse(b.to) - Date.parse(b.from)) / 86_400_000 < MODEL_FIT_MAX_DAYS, {
    error: V.outOfRange,
    path: ['to'],
  });
export type PlantModelFitBody = z.input<typeof plantModelFitBody>;

/** The fit's answer: the new parameters in force, or how many clear days were found of those needed. */
export const plantModelFitAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('fitted'), model: plantModelAnswer }),
  z.object({
    status: z.literal('insufficient_data'),
    days: z.number().int(),
    days_needed: z.number().int(),
  }),
]);
export type PlantModelFitAnswer = z.infer<typeof plantModelFitAnswer>;
