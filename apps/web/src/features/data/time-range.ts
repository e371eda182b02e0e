import { localDateParts, localMidnight } from '@solar/shared';

export const RANGE_PRESETS = [
  'today',
  'yesterday',
  'last7Days',
  'thisMonth',
  'last30Days',
  'thisYear',
  'custom',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** A time range as epoch milliseconds, `from` included and `to` excluded. */
export interface TimeRange {
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the calendar day y-m-d; a day past the month's end rolls over (`d + 1`, `d - 1`). */
const dateOf = (y: number, m: number, d: number): string =>
  new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/**
 * The range of a preset on the plant's calendar (`timeZone`), as the page's times are on its clock: today
 * starts at the plant's midnight, not the browser's. Running periods end at `now`; `custom` takes whole
 * local days (`YYYY-MM-DD`, the last one included, never past now).
 */
export function rangeOf(
  preset: RangePreset,
  now: number,
  timeZone: string,
  custom?: readonly [string, string] | null,
): TimeRange {
  const { year, month, day } = localDateParts(now, timeZone);
  const midnight = (y: number, m: number, d: number) => localMidnight(dateOf(y, m, d), timeZone);
  const until = (from: number) => ({ from, to: now });
  switch (preset) {
    case 'today':
      return until(midnight(year, month, day));
    case 'yesterday':
      return { from: midnight(year, month, day - 1), to: midnight(year, month, day) };
    case 'last7Days':
      return until(now - 7 * DAY_MS);
    case 'thisMonth':
      return until(midnight(year, month, 1));
    case 'last30Days':
      return until(now - 30 * DAY_MS);
    case 'thisYear':
      return until(midnight(year, 1, 1));
    case 'custom': {
      if (!custom) return until(midnight(year, month, day));
      const from = localMidnight(custom[0], timeZone);
      const [y, m, d] = custom[1].split('-').map(Number) as [number, number, number];
      const to = Math.min(midnight(y, m, d + 1), now);
      return { from, to: Math.max(to, from + 60_000) };
    }
  }
}

/** A file-name-safe form of a name: letters and digits kept (also Turkish and Cyrillic ones), the rest `-`. */
export const fileSafe = (name: string): string =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'data';
