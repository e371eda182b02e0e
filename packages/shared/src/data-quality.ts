import { z } from 'zod';
import { listAnswer, listQueryBase, refFilter } from './common';
import { calendarDateField, inOrder } from './dates';
import { V, requiredText } from './validation';

/**
 * Why a stretch of data is not believed (docs/data-quality.md). Each reason has a translated name and
 * explanation under `dataQuality.reasons.<reason>` in every locale.
 * - gap: expected samples missing against the interval the device is meant to report at;
 * - stale: a value that repeats while the quantity must vary (irradiance or power in daylight, a counter
 *   that does not advance while power is produced);
 * - spike: a reading far from its neighbours (Hampel filter);
 * - interpolated: a run that is exactly linear, as a logger's gap filling produces;
 * - out_of_range: outside what the signal's kind can physically be (irradiance, temperature, power against
 *   the device's rating and the plant's AC capacity, frequency, voltage);
 * - counter_backwards, counter_reset, counter_wrap, counter_jump: a cumulative counter that goes back,
 *   restarts near zero, wraps at 2³² or jumps by more than the device could produce in the interval;
 * - clock_shift, dst_error: the day's profile is shifted against the sun's position at the plant;
 * - replayed_day: a day whose readings repeat an earlier day's;
 * - irradiance_above_clear_sky, irradiance_night_offset, irradiance_power_drift,
 *   irradiance_neighbour_disagreement: plausibility of the plane-of-array or horizontal irradiance sensor;
 * - day_energy_impossible: a day's energy above what the plant's AC capacity can produce in that day;
 * - clipping: not a fault, but excluded where a method needs unclipped data;
 * - agent_clock_offset: the plant's edge agent, which stamps its devices' readings, ran on a clock beyond
 *   EDGE_CLOCK_OFFSET_BOUND_MS of the console's (edge.ts); set from the agent's health reports, not by a
 *   detector, so a rerun of the day keeps it.
 */
export const DATA_QUALITY_REASONS = [
  'gap',
  'stale',
  'spike',
  'interpolated',
  'out_of_range',
  'counter_backwards',
  'counter_reset',
  'counter_wrap',
  'counter_jump',
  'clock_shift',
  'dst_error',
  'replayed_day',
  'irradiance_above_clear_sky',
  'irradiance_night_offset',
  'irradiance_power_drift',
  'irradiance_neighbour_disagreement',
  'day_energy_impossible',
  'clipping',
  'agent_clock_offset',
] as const;
export type DataQualityReason = (typeof DATA_QUALITY_REASONS)[number];
export const dataQualityReasonSchema = z.enum(DATA_QUALITY_REASONS);

/** Reasons that are not faults of the data: shown, but never counted as a data problem. */
export const INFORMATIONAL_REASONS: readonly DataQualityReason[] = ['clipping'];

/** Reasons set outside the detectors (from edge agents' health reports): a rerun of a day leaves them. */
export const REPORTED_REASONS: readonly DataQualityReason[] = ['agent_clock_offset'];

/**
 * The checks that judge data against the sun at the plant's position (docs/data-quality.md, "Plants without
 * a location"). A plant without latitude and longitude has no sun to judge by: these are not run for it,
 * and its answers name them (translated as `dataQuality.checks.<check>`), while the other checks still run.
 * - clock: the day's profile against the sun (clock_shift, dst_error);
 * - daylight: what holds only while the sun is up: stale and spiking irradiance and power, irradiance at
 *   night, irradiance against the plant's power and against neighbours;
 * - clear_sky: irradiance above the clear-sky bound;
 * - clipping: the power plateau judged by the clear-sky index;
 * - day_energy: the day's energy against what the plant's capacity can produce in the day's daylight.
 */
export const SUN_BASED_CHECKS = ['clock', 'daylight', 'clear_sky', 'clipping'] as const;
export type SunBasedCheck = (typeof SUN_BASED_CHECKS)[number];
export const sunBasedCheckSchema = z.enum(SUN_BASED_CHECKS);

/** The longest span of local days one data-quality read covers. */
export const DATA_QUALITY_MAX_DAYS = 366;

/** Days between two YYYY-MM-DD dates (to − from); both valid. */
const daySpan = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/**
 * GET /api/plants/{id}/data-quality and /api/devices/{id}/data-quality: the plant's local days from `from`
 * through `to` (inclusive, at most DATA_QUALITY_MAX_DAYS); both default to the plant's today.
 */
export const dataQualityQuery = z
  .object({ from: calendarDateField().optional(), to: calendarDateField().optional() })
  .refine((q) => inOrder(q.from, q.to, false), { error: V.rangeOrder, path: ['to'] })
  .refine((q) => !q.from || !q.to || daySpan(q.from, q.to) < DATA_QUALITY_MAX_DAYS, {
    error: V.outOfRange,
    path: ['to'],
  });
export type DataQualityQuery = z.input<typeof dataQualityQuery>;

/** One stored flag: a stretch of a signal's (or the plant day's) data that is not believed. */
export const dataQualityFlagSchema = z.object({
  id: z.number().int(),
  plant_id: z.number().int(),
  device_id: z.number().int().nullable(),
  device_name: z.string().nullable(),
  signal_id: z.number().int().nullable(),
  signal_key: z.string().nullable(),
  reason: dataQualityReasonSchema,
  /** Not a fault of the data (INFORMATIONAL_REASONS): shown, never counted as a problem. */
  informational: z.boolean(),
  /** The plant's local date the flag was found in. */
  local_day: z.string(),
  /** [from, to), UTC ISO 8601. */
  from: z.string(),
  to: z.string(),
  /** Readings the flag covers; a gap covers none and says in `missing` how many it lacks. */
  readings: z.number().int(),
  missing: z.number().int(),
  /** The detector's figures (units in their names), explained by the reason's translated text. */
  detail: z.record(z.string(), z.number()),
  detected_at: z.string(),
  accepted_at: z.string().nullable(),
  accepted_by: z.string().nullable(),
  accept_note: z.string().nullable(),
});
export type DataQualityFlag = z.infer<typeof dataQualityFlagSchema>;

/** How much of a period's data one reason concerns. */
export const dataQualityReasonSummarySchema = z.object({
  reason: dataQualityReasonSchema,
  flags: z.number().int(),
  /** Readings flagged plus readings missing. */
  readings: z.number().int(),
  /** readings / the period's expected readings (0…1); null when no signal has an expected interval. */
  share: z.number().nullable(),
});
export type DataQualityReasonSummary = z.infer<typeof dataQualityReasonSummarySchema>;

/** The data-quality answer of a plant or a device over local days. */
export const dataQualityAnswer = z.object({
  plant_id: z.number().int(),
  device_id: z.number().int().nullable(),
  /** The plant's IANA zone: periods are shown on its clock. */
  time_zone: z.string(),
  from: z.string(),
  to: z.string(),
  /** Readings the signals should have sent over the days at their devices' intervals (0: unknown). */
  expected_readings: z.number().int(),
  /** Readings flagged or missing for a non-informational, unaccepted reason; share of expected (0…1). */
  problem_readings: z.number().int(),
  problem_share: z.number().nullable(),
  by_reason: z.array(dataQualityReasonSummarySchema),
  flags: z.array(dataQualityFlagSchema),
  /** The sun-based checks not run because the plant has no location (SUN_BASED_CHECKS); empty when it has. */
  skipped_checks: z.array(sunBasedCheckSchema),
});
export type DataQualityAnswer = z.infer<typeof dataQualityAnswer>;

/** GET /api/data-quality/problems: open problems of the caller's plants, newest first. */
export const dataQualityProblemsQuery = listQueryBase.extend({
  plant_id: refFilter(),
  reason: dataQualityReasonSchema.optional(),
});
export type DataQualityProblemsQuery = z.input<typeof dataQualityProblemsQuery>;

export const dataQualityProblemSchema = dataQualityFlagSchema.extend({
  plant_name: z.string(),
  time_zone: z.string(),
});
export type DataQualityProblem = z.infer<typeof dataQualityProblemSchema>;
export const dataQualityProblemList = listAnswer(dataQualityProblemSchema);
export type DataQualityProblemList = z.infer<typeof dataQualityProblemList>;

/** POST /api/data-quality/flags/{id}/accept: why the data is right after all (e.g. a real outage). */
export const dataQualityAcceptBody = z.object({ note: requiredText(500) });
export type DataQualityAcceptBody = z.infer<typeof dataQualityAcceptBody>;

/** POST /api/plants/{id}/data-quality/recheck: the plant's local day to run the engine over again. */
export const dataQualityRecheckBody = z.object({ day: calendarDateField() });
export type DataQualityRecheckBody = z.infer<typeof dataQualityRecheckBody>;

export const dataQualityRecheckAnswer = z.object({
  plant_id: z.number().int(),
  day: z.string(),
  /** Flags the day has after the run (accepted ones included). */
  flags: z.number().int(),
  /** The sun-based checks the run left out because the plant has no location; empty when it has one. */
  skipped_checks: z.array(sunBasedCheckSchema),
});
export type DataQualityRecheckAnswer = z.infer<typeof dataQualityRecheckAnswer>;
