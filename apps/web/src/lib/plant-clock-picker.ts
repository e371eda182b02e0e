import dayjs, { type Dayjs } from 'dayjs';
import { instantOfLocalTime, localWallTime } from '@solar/shared';

/**
 * A date-and-time picker works on the browser's clock; a plant's times are entered on the plant's. These
 * two carry an instant across: the picker is given the plant's wall-clock time as if it were the
 * browser's, and what it answers is read back as a wall-clock time in the plant's zone. Nothing in
 * between is an instant, so the browser's own offset never enters.
 */

/** The picker value showing the instant `at` (UTC ISO 8601) on the clock of `timeZone`; null for none. */
export function toPlantClock(at: string | null | undefined, timeZone: string): Dayjs | null {
  if (!at) return null;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : dayjs(localWallTime(ms, timeZone));
}

/**
 * The instant (UTC ISO 8601) a picker value stands for when read on the clock of `timeZone`; a time the
 * zone's clock skips or repeats is read as instantOfLocalTime reads it (packages/shared/time-zone.ts).
 */
export function fromPlantClock(value: Dayjs, timeZone: string): string {
  const minute = instantOfLocalTime(value.format('YYYY-MM-DD'), value.format('HH:mm'), timeZone);
  return new Date(minute + value.second() * 1000).toISOString();
}
