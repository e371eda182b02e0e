import { z } from 'zod';
import { calendarDateField } from './dates';

/**
 * An inverter's strings over one of its plant's local days (docs/string-health.md): each string's current
 * as interval means, its ratio to its siblings' median where the interval was judged, and its faults.
 */

/** Minutes of one interval of the answer's series. */
export const STRING_SERIES_MINUTES = 15;

/** GET /api/devices/{id}/strings: `date` is the plant's local day, default its today. */
export const deviceStringsQuery = z.object({ date: calendarDateField().optional() });
export type DeviceStringsQuery = z.input<typeof deviceStringsQuery>;

export const stringSeriesSchema = z.object({
  /** The string's number on the inverter (signal `string{n}_dc_current`). */
  n: z.number().int(),
  signal_id: z.number().int(),
  /** Mean current (A) per interval of `intervals`; null where the string sent nothing. */
  current_a: z.array(z.number().nullable()),
  /** Current over the siblings' median per interval; null where the interval was not judged (night, low light, no data). */
  ratio: z.array(z.number().nullable()),
  /**
   * Current over the median of the plant's strings of the same configuration (`plant_peers`) per interval;
   * null where not judged, and all null when the inverter has no such peers.
   */
  plant_ratio: z.array(z.number().nullable()),
});
export type StringSeries = z.infer<typeof stringSeriesSchema>;

export const stringFaultSchema = z.object({
  n: z.number().int(),
  from: z.string(),
  /** When it recovered; null while it lasts. */
  to: z.string().nullable(),
  /** Median of its ratios to the siblings' median over the fault (0…1). */
  ratio: z.number(),
  /** Energy lost over the fault's judged intervals (kWh); null without a known voltage. */
  energy_lost_kwh: z.number().nullable(),
});
export type StringFault = z.infer<typeof stringFaultSchema>;

export const deviceStringsAnswer = z.object({
  device_id: z.number().int(),
  /** The plant's IANA zone: the day and the intervals are on its clock. */
  time_zone: z.string(),
  date: z.string(),
  interval_minutes: z.number().int(),
  /** Start of each interval (ISO instants), the whole local day. */
  intervals: z.array(z.string()),
  /** The thresholds in force: a string under `ratio_threshold` for `sustain_minutes` of judged time is a fault. */
  ratio_threshold: z.number(),
  sustain_minutes: z.number(),
  strings: z.array(stringSeriesSchema),
  /** Faults that overlap the day, judged over the day and the day before (a fault may have begun then). */
  faults: z.array(stringFaultSchema),
  /**
   * The plant-wide reference: the inverters of this plant with the same rating and string count (this one
   * among them) and their strings; null when there are fewer than three such inverters.
   */
  plant_peers: z.object({ inverters: z.number().int(), strings: z.number().int() }).nullable(),
  /** Faults against the plant-wide median that overlap the day (the same rule, the other reference). */
  plant_faults: z.array(stringFaultSchema),
});
export type DeviceStringsAnswer = z.infer<typeof deviceStringsAnswer>;
