/**
 * The one check every way in (HTTP, MQTT, Modbus) applies to each point before it is stored:
 * its timestamp and its value, against a time window and the signal's validity bounds. Pure and cheap (a
 * few comparisons per point, no allocation), so a faster ingest path can call it per point.
 *
 * Who may send for which signal (unknown, out of scope, inactive) is each way in's own business and is
 * decided before this.
 */
import {
  INSTANT_MAX_MS,
  INSTANT_MIN_MS,
  SIGNAL_VALUE_LIMIT,
  TELEMETRY_EPOCH_SECONDS_BELOW_MS,
  TELEMETRY_FUTURE_TOLERANCE_MS,
  type PointRejection,
  type ValueBounds,
} from '@solar/shared';

const DAY_MS = 86_400_000;

/** The timestamps a batch received at one moment may carry: [oldestMs, latestMs], both included. */
export interface TimeWindow {
  oldestMs: number;
  latestMs: number;
}

/**
 * The window at `nowMs`: back to the raw retention (older buckets are final, their raw points deleted),
 * ahead by TELEMETRY_FUTURE_TOLERANCE_MS (a device clock a little ahead is tolerated, the future is not).
 */
export function timeWindow(nowMs: number, rawRetentionDays: number): TimeWindow {
  // Never outside the API's accepted instants (a retention of 100 years would reach back to the 1920s):
  // the KPI and report calendars are bounded by that range (docs/security.md "Dates and ranges").
  return {
    oldestMs: Math.max(INSTANT_MIN_MS, nowMs - rawRetentionDays * DAY_MS),
    latestMs: Math.min(INSTANT_MAX_MS, nowMs + TELEMETRY_FUTURE_TOLERANCE_MS),
  };
}

/** A point's refusal reason as far as time and value go. */
export type PointCheckRefusal = Extract<
  PointRejection,
  'epoch_seconds' | 'future' | 'too_old' | 'non_finite' | 'out_of_range'
>;

/**
 * Why the point cannot be stored, or null when it can. Order matters only for the reason given: a
 * seconds timestamp is named as such before it is "too old", and time comes before value.
 */
export function checkPoint(
  ts: number,
  value: number | null,
  bounds: ValueBounds,
  window: TimeWindow,
): PointCheckRefusal | null {
  if (ts < TELEMETRY_EPOCH_SECONDS_BELOW_MS) return 'epoch_seconds';
  if (ts > window.latestMs) return 'future';
  if (ts < window.oldestMs) return 'too_old';
  if (value === null || !Number.isFinite(value)) return 'non_finite';
  if (value < -SIGNAL_VALUE_LIMIT || value > SIGNAL_VALUE_LIMIT) return 'out_of_range';
  if (bounds.min !== null && value < bounds.min) return 'out_of_range';
  if (bounds.max !== null && value > bounds.max) return 'out_of_range';
  return null;
}
