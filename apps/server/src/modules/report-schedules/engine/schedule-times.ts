/**
 * When a scheduled report runs and which period it covers: pure calendar arithmetic in an IANA time zone,
 * through Intl only (no zone table of our own). Each local date that matches the rule has exactly one run
 * instant, and the instants of successive dates strictly increase, so a DST change can neither send a
 * daily report twice nor skip it:
 * - a local time that the spring-forward gap skips runs at the same distance past the gap (02:30 in a
 *   02:00→03:00 gap runs at 03:30), as RFC 5545 and Temporal's "compatible" disambiguation do;
 * - a local time that the fall-back overlap repeats runs at its first occurrence only.
 * Both are `instantOfLocalTime` (packages/shared), which the web uses for times entered on a plant's clock.
 */
import { instantOfLocalTime, type ReportFrequency } from '@solar/shared';
import { localDate, nextDate } from '../../../telemetry-store/buckets';

/** What decides the run instants of a subscription. */
export interface ScheduleRule {
  frequency: ReportFrequency;
  /** HH:MM local time. */
  localTime: string;
  /** ISO weekday 1 Monday … 7 Sunday (weekly only). */
  weekday: number;
  timeZone: string;
}

/** A report period as local dates, both included (YYYY-MM-DD). */
export interface ReportPeriod {
  from: string;
  to: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Enough local dates to find the next match of any rule: a monthly rule matches once in 31 days. */
const SEARCH_DAYS = 40;

/** ISO weekday (1 Monday … 7 Sunday) of a calendar date. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

function previousDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Does the rule run on this local date? */
export function runsOn(rule: ScheduleRule, date: string): boolean {
  if (rule.frequency === 'daily') return true;
  if (rule.frequency === 'weekly') return isoWeekday(date) === rule.weekday;
  return date.endsWith('-01');
}

/** The first run instant strictly after `afterMs`. */
export function nextRunAt(rule: ScheduleRule, afterMs: number): number {
  // From the day before: a run of yesterday's date can still lie ahead in a zone far east of UTC.
  let date = previousDate(localDate(afterMs, rule.timeZone));
  for (let i = 0; i < SEARCH_DAYS + 2; i++, date = nextDate(date)) {
    if (!runsOn(rule, date)) continue;
    const at = instantOfLocalTime(date, rule.localTime, rule.timeZone);
    if (at > afterMs) return at;
  }
  throw new RangeError(`no run of ${rule.frequency} ${rule.localTime} after ${afterMs}`);
}

/** The last run instant at or before `nowMs`, or undefined when none lies within the search window. */
export function latestRunAtOrBefore(rule: ScheduleRule, nowMs: number): number | undefined {
  let date = nextDate(localDate(nowMs, rule.timeZone));
  for (let i = 0; i < SEARCH_DAYS + 2; i++, date = previousDate(date)) {
    if (!runsOn(rule, date)) continue;
    const at = instantOfLocalTime(date, rule.localTime, rule.timeZone);
    if (at <= nowMs) return at;
  }
  return undefined;
}

/**
 * The period a run reports on, in the zone's local dates: the day before a daily run, the seven days
 * before a weekly run, the calendar month before a monthly run.
 */
export function reportPeriod(rule: ScheduleRule, runAtMs: number): ReportPeriod {
  const runDate = localDate(runAtMs, rule.timeZone);
  const yesterday = previousDate(runDate);
  if (rule.frequency === 'daily') return { from: yesterday, to: yesterday };
  if (rule.frequency === 'weekly') return { from: addDays(runDate, -7), to: yesterday };
  return { from: `${yesterday.slice(0, 7)}-01`, to: yesterday };
}

/**
 * The run a runner delivers when it finds `pendingRunAt` due at `nowMs`: the latest occurrence that has
 * passed. Runs missed while the server was down collapse into one mail, of the newest period.
 */
export function runToDeliver(rule: ScheduleRule, pendingRunAt: number, nowMs: number): number {
  const latest = latestRunAtOrBefore(rule, nowMs);
  return latest !== undefined && latest > pendingRunAt ? latest : pendingRunAt;
}

/** Failed attempts of one run before it is given up and the next occurrence is waited for. */
export const MAX_SEND_ATTEMPTS = 5;
const RETRY_BASE_MS = MINUTE_MS;
const RETRY_MAX_MS = HOUR_MS;

/** Wait before the next attempt after `failedAttempts` failures: 1, 2, 4, 8 … minutes, at most an hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_MAX_MS);
}
