import dayjs, { type Dayjs } from 'dayjs';

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

/**
 * The range of a preset in the browser's time zone, ending now for the running periods; `custom` takes
 * whole local days from the picker (the last one included, never past now).
 */
export function rangeOf(preset: RangePreset, now: Dayjs, custom?: [Dayjs, Dayjs] | null): TimeRange {
  const today = now.startOf('day');
  const until = (d: Dayjs) => ({ from: d.valueOf(), to: now.valueOf() });
  switch (preset) {
    case 'today':
      return until(today);
    case 'yesterday':
      return { from: today.subtract(1, 'day').valueOf(), to: today.valueOf() };
    case 'last7Days':
      return until(now.subtract(7, 'day'));
    case 'thisMonth':
      return until(now.startOf('month'));
    case 'last30Days':
      return until(now.subtract(30, 'day'));
    case 'thisYear':
      return until(now.startOf('year'));
    case 'custom': {
      if (!custom) return until(today);
      const from = custom[0].startOf('day').valueOf();
      const to = Math.min(custom[1].add(1, 'day').startOf('day').valueOf(), now.valueOf());
      return { from, to: Math.max(to, from + 60_000) };
    }
  }
}

/** `2025-06-01` of a timestamp in local time, for file names. */
export const localDate = (ms: number): string => dayjs(ms).format('YYYY-MM-DD');

/** A file-name-safe form of a name: letters and digits kept (also Turkish and Cyrillic ones), the rest `-`. */
export const fileSafe = (name: string): string =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'data';
