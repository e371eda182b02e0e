import { DATE_MAX, DATE_MIN, FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';

/** Start (epoch ms) of the fixed-width bucket holding `ms`; buckets are aligned to the Unix epoch. */
export function floorBucket(ms: number, widthMs: number): number {
  // One floating-point remainder (about 15 ns each); a negative one belongs to the bucket below.
  const r = ms % widthMs;
  return r < 0 ? ms - r - widthMs : ms - r;
}

/**
 * floorBucket over a run of instants that mostly stay in one bucket (a batch's points, oldest first): the
 * bucket is computed again only when an instant leaves the last one. Ten thousand points in order cost
 * 9 µs instead of 300 µs.
 */
export function bucketRun(widthMs: number): (ms: number) => number {
  let start = Number.NaN;
  let end = Number.NaN;
  return (ms) => {
    if (!(ms >= start && ms < end)) {
      start = floorBucket(ms, widthMs);
      end = start + widthMs;
    }
    return start;
  };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar date (YYYY-MM-DD) of the instant `ms` in the IANA time zone. */
export function localDate(ms: number, timeZone: string): string {
  return dateFormat(timeZone).format(ms);
}

const dayStarts = new Map<string, number>();

/**
 * The first instant (epoch ms) of the calendar date `date` (YYYY-MM-DD) in the time zone: local midnight,
 * or the first existing instant when a DST change skips midnight. Found by bisection over instants, so it
 * holds for any offset (including :30 and :45 zones) without a time-zone table of our own.
 */
export function dayStart(date: string, timeZone: string): number {
  const cacheKey = `${timeZone}|${date}`;
  const cached = dayStarts.get(cacheKey);
  if (cached !== undefined) return cached;
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // Offsets are within ±14 h: the local day starts within a day and a half of UTC midnight.
  let lo = utcMidnight - 36 * 3_600_000;
  let hi = utcMidnight + 36 * 3_600_000;
  // Invariant: localDate(lo) < date <= localDate(hi).
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDate(mid, timeZone) < date) lo = mid;
    else hi = mid;
  }
  if (dayStarts.size > 100_000) dayStarts.clear();
  dayStarts.set(cacheKey, hi);
  return hi;
}

const DAY_MS = 86_400_000;
const FOUR_DIGIT_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Days in the API's accepted range DATE_MIN … DATE_MAX, both included: the longest span anything spans. */
const MAX_SPAN_DAYS =
  (Date.parse(`${DATE_MAX}T00:00:00Z`) - Date.parse(`${DATE_MIN}T00:00:00Z`)) / DAY_MS + 1;

/** Epoch ms of the UTC midnight of `date`; a RangeError unless it is YYYY-MM-DD with a four-digit year. */
function utcMidnight(date: string): number {
  const ms = FOUR_DIGIT_DATE.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${date}`);
  return ms;
}

/**
 * The date after `date` (YYYY-MM-DD), in the proleptic Gregorian calendar. Past 9999-12-31 there is no
 * four-digit date: a RangeError, never `+010000-01-01`, which sorts before every date and would keep a
 * `date <= to` loop going for ever (docs/security.md "Dates and ranges").
 */
export function nextDate(date: string): string {
  const next = new Date(utcMidnight(date) + DAY_MS).toISOString().slice(0, 10);
  if (!FOUR_DIGIT_DATE.test(next)) throw new RangeError(`no date after ${date}`);
  return next;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of a month of the proleptic Gregorian calendar (month 1–12). */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

/**
 * The dates from `from` (included) to `toExclusive` (excluded). The count is known before the loop, so it
 * ends whatever the dates; more than `maxDays` dates (by default the API's whole accepted range) is a
 * RangeError, never a loop that runs the process out of time or memory.
 */
export function datesUntil(from: string, toExclusive: string, maxDays = MAX_SPAN_DAYS): string[] {
  const start = utcMidnight(from);
  const count = Math.max(0, Math.round((utcMidnight(toExclusive) - start) / DAY_MS));
  if (count > maxDays) throw new RangeError(`${count} days from ${from} is more than ${maxDays}`);
  // Counted on the calendar's numbers, not with nextDate's parse and checks per date: a year's KPI answer
  // lists its dates three times, and that took 5 ms of a 12 ms call. Every date lies before `toExclusive`,
  // which utcMidnight checked, so each is a real four-digit date.
  const out = new Array<string>(count);
  let [year, month, day] = from.split('-').map(Number) as [number, number, number];
  for (let i = 0; i < count; i++) {
    out[i] = `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
    if (day < daysInMonth(year, month)) day++;
    else if (month < 12) [month, day] = [month + 1, 1];
    else [year, month, day] = [year + 1, 1, 1];
  }
  return out;
}

/** The dates from `from` to `to`, both included (datesUntil). */
export function datesThrough(from: string, to: string, maxDays = MAX_SPAN_DAYS): string[] {
  return datesUntil(from, nextDate(to), maxDays);
}

/** Start of the local calendar day holding `ms`: the key of a `1d` rollup bucket. */
export function dayBucket(ms: number, timeZone: string): number {
  return dayStart(localDate(ms, timeZone), timeZone);
}

/** [start, end) of the local calendar day holding `ms`; 23, 24 or 25 hours long around DST changes. */
export function dayRange(ms: number, timeZone: string): [number, number] {
  const date = localDate(ms, timeZone);
  return [dayStart(date, timeZone), dayStart(nextDate(date), timeZone)];
}

/** The bucket of `ms` at a rollup resolution; `1d` needs the plant's time zone. */
export function bucketOf(ms: number, resolution: RollupResolution, timeZone: string): number {
  return resolution === '1d' ? dayBucket(ms, timeZone) : floorBucket(ms, FIXED_BUCKET_MS[resolution]);
}

/** True when the local days of the zone start on whole UTC hours around `ms` (so 1h buckets tile the day). */
export function dayAlignedToHours(ms: number, timeZone: string): boolean {
  const [start, end] = dayRange(ms, timeZone);
  return start % 3_600_000 === 0 && end % 3_600_000 === 0;
}
