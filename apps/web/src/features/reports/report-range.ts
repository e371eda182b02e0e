import type { Dayjs } from 'dayjs';

/** Period presets of the report picker; every one ends on a whole past or current day. */
export const RANGE_PRESETS = ['yesterday', 'last7Days', 'lastMonth', 'thisMonth', 'thisYear'] as const;
export type ReportRangePreset = (typeof RANGE_PRESETS)[number];

/** The first and last local day (both included) of a preset, seen from `now`. */
export function presetRange(preset: ReportRangePreset, now: Dayjs): [Dayjs, Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'yesterday':
      return [today.subtract(1, 'day'), today.subtract(1, 'day')];
    case 'last7Days':
      return [today.subtract(7, 'day'), today.subtract(1, 'day')];
    case 'lastMonth': {
      const first = today.startOf('month').subtract(1, 'month');
      return [first, first.endOf('month').startOf('day')];
    }
    case 'thisMonth':
      return [today.startOf('month'), today];
    case 'thisYear':
      return [today.startOf('year'), today];
  }
}
