/**
 * Wall-clock arithmetic in IANA time zones with the platform's Intl data only (no zone table of our own):
 * the server's schedules and day buckets, the simulator's daily counters and the web's day ranges all
 * need "what is the local time there, at this instant".
 */

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds (east positive; Europe/Istanbul → +3 h). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of wallFormat(timeZone).formatToParts(ms)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wallAsUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  // The formatter drops milliseconds: compare with the instant's whole second.
  return wallAsUtc - Math.floor(ms / 1000) * 1000;
}

/** The local calendar date and the zone's offset at an instant. */
export function localDateParts(
  ms: number,
  timeZone: string,
): { year: number; month: number; day: number; offsetMs: number } {
  const offsetMs = zoneOffsetMs(ms, timeZone);
  const wall = new Date(ms + offsetMs);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    offsetMs,
  };
}

/** The instant a local date (YYYY-MM-DD) starts in a time zone; DST days are 23 or 25 hours long. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Twice: the offset at the guess can differ from the offset at the real midnight across a DST change.
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/** The wall-clock time of the instant in a zone as ISO 8601 without an offset: "YYYY-MM-DDTHH:MM:SS". */
export function localWallTime(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 19);
}

const HOUR_MS = 3_600_000;

/**
 * The instant the local wall time `date` `time` (HH:MM) occurs in the zone: its first occurrence when the
 * fall-back overlap repeats it, the instant as far past the gap when spring-forward skips it (02:30 in a
 * 02:00→03:00 gap is 03:30), as RFC 5545 and Temporal's "compatible" disambiguation do.
 */
export function instantOfLocalTime(date: string, time: string, timeZone: string): number {
  const wallAsUtc = Date.parse(`${date}T${time}:00Z`);
  // Every offset the zone has within half a day of that wall time (at most two around a change).
  const offsets = [
    ...new Set([-12 * HOUR_MS, 0, 12 * HOUR_MS].map((d) => zoneOffsetMs(wallAsUtc + d, timeZone))),
  ];
  const target = `${date}T${time}`;
  const exact = offsets
    .map((o) => wallAsUtc - o)
    .filter((ms) => localWallTime(ms, timeZone).slice(0, 16) === target);
  if (exact.length) return Math.min(...exact);
  // In a gap: read the wall time with the offset before the change (the smaller one for a spring-forward).
  return wallAsUtc - Math.min(...offsets);
}
