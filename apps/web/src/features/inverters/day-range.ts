import { zoneOffsetMs } from '@solar/shared';

/** The instant a local date (YYYY-MM-DD) starts in a time zone; DST days are 23 or 25 hours long. */
export function localMidnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Twice: the offset at the guess can differ from the offset at the real midnight across a DST change.
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/** The local day `date` in `timeZone` as [start, end) epoch ms. */
export function dayRange(date: string, timeZone: string): { from: number; to: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  return { from: localMidnight(date, timeZone), to: localMidnight(next, timeZone) };
}
