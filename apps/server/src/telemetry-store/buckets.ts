import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';

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

/** The date after `date` (YYYY-MM-DD), in the proleptic Gregorian calendar. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
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
