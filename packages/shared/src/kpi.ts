import { z } from 'zod';
import { budgetFiguresSchema } from './budget-figures';
import type { DataQualityReason } from './data-quality';
import { calendarDateField } from './dates';
import { degradationResult, soilingPeriodLoss } from './performance';
import { V } from './validation';

/**
 * Operating status of a plant or a device, in precedence order (the first that applies wins): an active
 * high or dangerous alarm is a fault, lost communication is offline, a low or medium alarm (or a device of
 * the plant that stopped reporting) is a warning, no daylight is night, else normal.
 */
export const OPERATING_STATUSES = ['fault', 'offline', 'warning', 'night', 'normal'] as const;
export type OperatingStatus = (typeof OPERATING_STATUSES)[number];
export const operatingStatusSchema = z.enum(OPERATING_STATUSES);

/**
 * Where a plant's energy figure comes from: the grid meter's export counter when the plant has one with
 * readings, else the sum of its inverters' counters; `none` when neither reported.
 */
export const ENERGY_SOURCES = ['meter', 'inverters', 'none'] as const;
export type EnergySource = (typeof ENERGY_SOURCES)[number];
export const energySourceSchema = z.enum(ENERGY_SOURCES);

/**
 * Where plane-of-array irradiance comes from: measured by the station, transposed from its global
 * horizontal irradiance with the plant's tilt and azimuth, or not available.
 */
export const IRRADIANCE_SOURCES = ['measured', 'transposed', 'none'] as const;
export type IrradianceSource = (typeof IRRADIANCE_SOURCES)[number];
export const irradianceSourceSchema = z.enum(IRRADIANCE_SOURCES);

/**
 * A period whose coverage (the share of it that has data) is below this is marked on every screen and in
 * every report with how much of it has data: its availability and PR speak for that share only.
 */
export const KPI_COVERAGE_WARNING_BELOW = 0.9;

/** True when a period's figures rest on too little of it to be read without a warning (null: nothing elapsed). */
export const isLowCoverage = (coverage: number | null): boolean =>
  coverage !== null && coverage < KPI_COVERAGE_WARNING_BELOW;

/**
 * The parts of a day's loss (expected − actual energy); they add up to the total. `grid_curtailment` is
 * energy not produced because the grid was down or the operator curtailed the plant (zero when the plant
 * has no such signals); `underperformance` is what remains, negative when the plant beat the model.
 */
export const LOSS_KINDS = [
  'downtime',
  'communication_gap',
  'clipping',
  'grid_curtailment',
  'underperformance',
] as const;
export type LossKind = (typeof LOSS_KINDS)[number];
export const lossKindSchema = z.enum(LOSS_KINDS);

/** KPI periods: a local day, month or year in the plant's time zone. */
export const KPI_PERIODS = ['day', 'month', 'year'] as const;
export type KpiPeriod = (typeof KPI_PERIODS)[number];
export const kpiPeriodSchema = z.enum(KPI_PERIODS);

/** i18n keys of SunSpec inverter operating states (model 103 St), for the inverter summary's status text. */
export const INVERTER_STATE_KEYS: Readonly<Record<number, string>> = {
  1: 'kpi.inverterState.off',
  2: 'kpi.inverterState.sleeping',
  3: 'kpi.inverterState.starting',
  4: 'kpi.inverterState.mppt',
  5: 'kpi.inverterState.throttled',
  6: 'kpi.inverterState.shuttingDown',
  7: 'kpi.inverterState.fault',
  8: 'kpi.inverterState.standby',
};
/** Key of a status code outside the SunSpec table. */
export const INVERTER_STATE_UNKNOWN_KEY = 'kpi.inverterState.unknown';

/** `?date=YYYY-MM-DD`, a local date of the plant; absent means the plant's today. */
export const kpiDateQuery = z.object({ date: calendarDateField().optional() });
export type KpiDateQuery = z.input<typeof kpiDateQuery>;

/** GET plants/{id}/kpis */
export const plantKpisQuery = kpiDateQuery.extend({
  period: z.enum(KPI_PERIODS, { error: V.invalidValue }).default('day'),
});
export type PlantKpisQuery = z.input<typeof plantKpisQuery>;

/** A period's loss (expected − actual energy) by kind; the kinds add up to `total_kwh`. */
export const kpiLossesSchema = z.object({
  downtime_kwh: z.number(),
  communication_gap_kwh: z.number(),
  clipping_kwh: z.number(),
  grid_curtailment_kwh: z.number(),
  underperformance_kwh: z.number(),
  total_kwh: z.number(),
});

/**
 * Why energy a device reported is not counted as production (docs/kpi.md, "Excluded energy"); the names are
 * the data-quality reasons of data-quality.ts: a counter step larger than the device could produce in the
 * elapsed time, a day's energy above what the plant's AC capacity can deliver in its daylight, and the
 * energy of a device whose day a logger replayed (an open `replayed_day` flag on one of its signals).
 */
export const EXCLUDED_ENERGY_REASONS = [
  'counter_jump',
  'day_energy_impossible',
  'replayed_day',
] as const satisfies readonly DataQualityReason[];
export type ExcludedEnergyReason = (typeof EXCLUDED_ENERGY_REASONS)[number];

/** Energy excluded from a period's production, per reason; the reasons add up to `total`. */
export const excludedEnergySchema = z.object({
  counter_jump: z.number(),
  day_energy_impossible: z.number(),
  replayed_day: z.number(),
  total: z.number(),
});
export type ExcludedEnergy = z.infer<typeof excludedEnergySchema>;

/**
 * Why an irradiance sensor's data is left out of the insolation, PR and expected energy (docs/kpi.md,
 * "Irradiance the data-quality engine doubts"): its open data-quality flags of these reasons.
 */
export const EXCLUDED_IRRADIANCE_REASONS = [
  'stale',
  'spike',
  'out_of_range',
  'irradiance_above_clear_sky',
  'irradiance_night_offset',
  'irradiance_power_drift',
  'irradiance_neighbour_disagreement',
  'replayed_day',
] as const satisfies readonly DataQualityReason[];
export type ExcludedIrradianceReason = (typeof EXCLUDED_IRRADIANCE_REASONS)[number];

/**
 * Hours of the period whose irradiance was left out as missing, per reason (5-minute intervals a flag
 * touches); `total` counts an hour once whatever the number of reasons.
 */
export const excludedIrradianceSchema = z.object({
  stale: z.number(),
  spike: z.number(),
  out_of_range: z.number(),
  irradiance_above_clear_sky: z.number(),
  irradiance_night_offset: z.number(),
  irradiance_power_drift: z.number(),
  irradiance_neighbour_disagreement: z.number(),
  replayed_day: z.number(),
  total: z.number(),
});
export type ExcludedIrradiance = z.infer<typeof excludedIrradianceSchema>;

/** The KPIs of a period (a day, month or year) or of one of its rows. */
export const kpiValuesSchema = z.object({
  energy_kwh: z.number().nullable(),
  energy_source: energySourceSchema,
  /** Final yield Yf = E / P0. */
  specific_yield_kwh_kwp: z.number().nullable(),
  /** H_POA. */
  irradiation_kwh_m2: z.number(),
  irradiance_source: irradianceSourceSchema,
  /** Yr = H_POA / G_ref. */
  reference_yield_kwh_kwp: z.number(),
  pr: z.number().nullable(),
  pr_temperature_corrected: z.number().nullable(),
  expected_energy_kwh: z.number(),
  losses: kpiLossesSchema,
  availability: z.object({
    /** Share of daylight intervals the inverters produced in, weighted by rated AC power. */
    time_based: z.number().nullable(),
    /** IEC TS 63019: 1 − downtime loss / (energy + downtime loss). */
    energy_based: z.number().nullable(),
  }),
  /** Received / expected samples of the plant's devices, over the days that have data. */
  data_completeness: z.number().nullable(),
  /**
   * The share of the period (up to now) that has data, 0…1: each elapsed day weighs equally, with its data
   * completeness; a day without any data counts 0. Null when none of the period has elapsed.
   */
  coverage: z.number().nullable(),
  co2_avoided_kg: z.number().nullable(),
  /** Energy reported but not counted as production, and why (not in `energy_kwh`, nor in PR). */
  excluded_energy_kwh: excludedEnergySchema,
});
export type KpiValues = z.infer<typeof kpiValuesSchema>;

/** The expected power model's inputs, so every figure can be recomputed by hand. */
export const kpiModelSchema = z.object({
  /** P0. */
  dc_capacity_kwp: z.number().nullable(),
  /** Clipping threshold (the inverters' summed rating when the plant has none). */
  ac_capacity_kw: z.number().nullable(),
  temperature_coefficient_per_k: z.number(),
  system_loss_fraction: z.number(),
  g_ref_w_m2: z.number(),
  t_ref_c: z.number(),
  daylight_threshold_w_m2: z.number(),
  co2_factor_kg_per_kwh: z.number(),
  co2_factor_country: z.string(),
  co2_factor_year: z.number().int(),
  co2_factor_source: z.string(),
  /** `override`: the admin panel's factor for the country; `built_in`: the console's table. */
  co2_factor_origin: z.enum(['built_in', 'override']),
});

/** One device's data completeness over a day (IEC 61724-1 reports the share of valid data per channel). */
export const deviceCompletenessSchema = z.object({
  device_id: z.number().int(),
  name: z.string(),
  type: z.string(),
  poll_interval_s: z.number().int(),
  /**
   * The interval its data was meant to arrive at: the poll interval, or the slower steady spacing its
   * samples arrived at within the 5-minute buckets that hold any (a history back-filled at 5 minutes).
   */
  expected_interval_s: z.number(),
  /** Samples that interval asks for in the local day (up to now, for today). */
  expected_samples: z.number().int(),
  /** Sample times received: the day's count of its most sampled signal. */
  received_samples: z.number().int(),
  /** received / expected, capped at 1; null when nothing was expected. */
  data_completeness: z.number().nullable(),
});
export type DeviceCompleteness = z.infer<typeof deviceCompletenessSchema>;

/**
 * Degradation and the period's soiling loss in the KPI answer: the performance module's answer for the
 * plant (GET plants/{id}/performance?from&to with the period's local dates), not a second computation
 * (docs/performance.md). Each says, when there is too little data, why and what span it found.
 */
export const kpiPerformanceSchema = z.object({
  /** The plant's year-on-year degradation from its whole history up to today (68.2 % interval). */
  degradation: degradationResult,
  /** The soiling loss over the period's days (95 % interval), or why none is answered. */
  soiling: soilingPeriodLoss,
  /**
   * The data the soiling method rests on: the usable days of the plant's history and their span; with
   * `insufficient_data`, `days_needed` usable days one interval between recoveries needs (null otherwise).
   */
  soiling_data: z.object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    span_days: z.number().int(),
    usable_days: z.number().int(),
    days_needed: z.number().int().nullable(),
  }),
});
export type KpiPerformance = z.infer<typeof kpiPerformanceSchema>;

export const plantKpisAnswer = kpiValuesSchema.extend({
  plant_id: z.number().int(),
  period: kpiPeriodSchema,
  /** The date asked for (YYYY-MM-DD, the plant's local calendar). */
  date: z.string(),
  time_zone: z.string(),
  /** The period's start and end (UTC ISO 8601), half-open. */
  from: z.string(),
  to: z.string(),
  /** True when the period holds the plant's today, computed live. */
  includes_today: z.boolean(),
  model: kpiModelSchema,
  /** A month's days (key YYYY-MM-DD) or a year's months (key YYYY-MM); the day itself for a day. */
  rows: z.array(kpiValuesSchema.extend({ key: z.string(), budget: budgetFiguresSchema })),
  /** The period against the plant's P50 budget (budgets.ts): actual, budget and weather-corrected budget. */
  budget: budgetFiguresSchema,
  /**
   * A day's completeness per active device with active signals (period=day only; a month or year answers
   * the plant's figure alone). The plant's `data_completeness` is Σ received (capped) / Σ expected of these.
   */
  devices: z.array(deviceCompletenessSchema).optional(),
  /**
   * The period's irradiance left out of `irradiation_kwh_m2`, PR and expected energy because the
   * data-quality engine doubts it (open flags on the plant's irradiance sensor), in hours per reason.
   */
  excluded_irradiance_hours: excludedIrradianceSchema,
  performance: kpiPerformanceSchema,
});
export type PlantKpisAnswer = z.infer<typeof plantKpisAnswer>;

/** One 5-minute point of a day's power chart. */
export const powerPointSchema = z.object({
  ts: z.string(),
  /** The sum of the inverters: Σ their counters' energy in the interval / its length. */
  actual_power_kw: z.number().nullable(),
  /** The meter's export in the interval / its length; null without a meter reading in it. */
  meter_power_kw: z.number().nullable(),
  expected_power_kw: z.number().nullable(),
  poa_w_m2: z.number().nullable(),
});

export const plantPowerAnswer = z.object({
  plant_id: z.number().int(),
  date: z.string(),
  time_zone: z.string(),
  interval_minutes: z.number().int(),
  irradiance_source: irradianceSourceSchema,
  /** The source of the day's energy in its KPIs: with `meter`, `meter_power_kw` adds up to it. */
  energy_source: energySourceSchema,
  model: kpiModelSchema,
  points: z.array(powerPointSchema),
});
export type PlantPowerAnswer = z.infer<typeof plantPowerAnswer>;

/** Active alarms of a plant and its devices by priority (1 low … 4 high and dangerous). */
export const alarmCountsSchema = z.object({
  low: z.number().int(),
  medium: z.number().int(),
  high: z.number().int(),
  dangerous: z.number().int(),
  total: z.number().int(),
});

export const plantOverviewItem = z.object({
  plant_id: z.number().int(),
  name: z.string(),
  field_id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  time_zone: z.string(),
  status: operatingStatusSchema,
  dc_capacity_kwp: z.number().nullable(),
  ac_capacity_kw: z.number().nullable(),
  /** Σ of the inverters' latest AC power. */
  ac_power_kw: z.number().nullable(),
  /** ac_power_kw / ac_capacity_kw × 100. */
  ac_capacity_percent: z.number().nullable(),
  energy_today_kwh: z.number().nullable(),
  energy_source: energySourceSchema,
  specific_yield_today_kwh_kwp: z.number().nullable(),
  pr_today: z.number().nullable(),
  pr_yesterday: z.number().nullable(),
  active_alarms: alarmCountsSchema,
  last_data_at: z.string().nullable(),
  /**
   * Why the plant is a `warning` without an alarm: it makes less than a quarter of the share of its AC
   * capacity that a plant of the same field makes (at least 20 %), under the same sky; null otherwise.
   */
  below_neighbour: z
    .object({
      plant_id: z.number().int(),
      name: z.string(),
      ac_capacity_percent: z.number(),
    })
    .nullable(),
  /**
   * The hours of the plant's yesterday whose irradiance `pr_yesterday` left out (doubted by the data-quality
   * engine): GET plants/{id}/kpis's `excluded_irradiance_hours` for that day. PR today, from hourly means
   * so far, does not leave doubted irradiance out yet, so there is no figure for today.
   */
  excluded_irradiance_hours_yesterday: excludedIrradianceSchema,
});
export type PlantOverviewItem = z.infer<typeof plantOverviewItem>;

export const plantsOverviewAnswer = z.object({ items: z.array(plantOverviewItem) });
export type PlantsOverviewAnswer = z.infer<typeof plantsOverviewAnswer>;

export const inverterMpptSchema = z.object({
  /** 1-based MPPT (SunSpec model 160 module) number. */
  index: z.number().int(),
  dc_voltage_v: z.number().nullable(),
  dc_current_a: z.number().nullable(),
  dc_power_kw: z.number().nullable(),
});

export const inverterComparisonSchema = z.object({
  device_id: z.number().int(),
  name: z.string(),
  energy_kwh: z.number().nullable(),
  specific_yield_kwh_kwp: z.number().nullable(),
});

export const inverterSummaryAnswer = z.object({
  device_id: z.number().int(),
  plant_id: z.number().int(),
  name: z.string(),
  date: z.string(),
  time_zone: z.string(),
  status: operatingStatusSchema,
  rated_power_kw: z.number().nullable(),
  /** The inverter's share of the plant's P0: dc_capacity_kwp × rated / Σ rated of the plant's inverters. */
  dc_capacity_kwp: z.number().nullable(),
  ac_power_kw: z.number().nullable(),
  dc_power_kw: z.number().nullable(),
  /** AC / DC power, 0…1. */
  efficiency: z.number().nullable(),
  dc_voltage_v: z.number().nullable(),
  dc_current_a: z.number().nullable(),
  temperature_c: z.number().nullable(),
  status_code: z.number().nullable(),
  /** i18n key of the status code's text. */
  status_text_key: z.string().nullable(),
  mppts: z.array(inverterMpptSchema),
  /** Energy of the chosen day. */
  energy_kwh: z.number().nullable(),
  lifetime_energy_kwh: z.number().nullable(),
  specific_yield_kwh_kwp: z.number().nullable(),
  /** Every inverter of the plant (this one included) for the chosen day. */
  plant_inverters: z.array(inverterComparisonSchema),
  last_data_at: z.string().nullable(),
});
export type InverterSummaryAnswer = z.infer<typeof inverterSummaryAnswer>;
