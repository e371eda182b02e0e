import { z } from 'zod';

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
 * - clipping: not a fault, but excluded where a method needs unclipped data.
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
] as const;
export type DataQualityReason = (typeof DATA_QUALITY_REASONS)[number];
export const dataQualityReasonSchema = z.enum(DATA_QUALITY_REASONS);

/** Reasons that are not faults of the data: shown, but never counted as a data problem. */
export const INFORMATIONAL_REASONS: readonly DataQualityReason[] = ['clipping'];
