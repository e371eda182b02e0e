import { DATA_QUALITY_MAX_DAYS, type DataQualityFlag } from '@solar/shared';
import { flagStatus, type FlagStatus } from './model';

const DAY_MS = 86_400_000;

/** One flag's period as a shaded band on the chart of its signal. */
export interface FlagBand {
  flagId: number;
  signalId: number;
  /** [from, to) in epoch ms, cut to the chart's range. */
  from: number;
  to: number;
  flag: DataQualityFlag;
  status: FlagStatus;
}

/**
 * The bands of the flags on the charted signals that overlap the range [from, to): flags on a plant's day
 * as a whole (no signal) belong to no chart and stay on the plant page's card.
 */
export function flagBands(
  flags: readonly DataQualityFlag[],
  signalIds: readonly number[],
  range: { from: number; to: number },
): FlagBand[] {
  const charted = new Set(signalIds);
  return flags.flatMap((flag) => {
    if (flag.signal_id === null || !charted.has(flag.signal_id)) return [];
    const from = Math.max(Date.parse(flag.from), range.from);
    const to = Math.min(Date.parse(flag.to), range.to);
    if (!(to > from)) return [];
    return [{ flagId: flag.id, signalId: flag.signal_id, from, to, flag, status: flagStatus(flag) }];
  });
}

/** Adds whole days to a YYYY-MM-DD date. */
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The local days [first, last] of the data-quality read behind a chart of the plant days [first, last]: a
 * range longer than one read may cover keeps its last DATA_QUALITY_MAX_DAYS days, the recent ones.
 */
export function flagDays(first: string, last: string): [string, string] {
  const earliest = addDays(last, -(DATA_QUALITY_MAX_DAYS - 1));
  return [first < earliest ? earliest : first, last];
}
