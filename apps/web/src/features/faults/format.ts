import type { FaultStatus } from '@solar/shared';
import type { Translate } from '../../lib/i18n-keys';

/** Tag colour of each fault status. */
export const STATUS_COLORS: Record<FaultStatus, string> = {
  open: 'red',
  in_progress: 'processing',
  resolved: 'success',
  closed: 'default',
};

/** Tag colour of each priority: 1 low … 4 high and dangerous. */
export const PRIORITY_COLORS: Record<number, string> = { 1: 'blue', 2: 'gold', 3: 'orange', 4: 'red' };

/** i18n key of each priority label. */
export { priorityKey } from '../alarms';

/**
 * A duration in seconds as `2d 3h`, `1h 5m`, `4m 10s` or `12s` (two largest units), with the unit
 * letters translated; empty for null.
 */
export function formatDuration(seconds: number | null | undefined, t: Translate): string {
  if (seconds === null || seconds === undefined) return '';
  const s = Math.max(0, Math.round(seconds));
  const parts: [number, string][] = [
    [Math.floor(s / 86_400), t('faults.page.units.d')],
    [Math.floor((s % 86_400) / 3600), t('faults.page.units.h')],
    [Math.floor((s % 3600) / 60), t('faults.page.units.m')],
    [s % 60, t('faults.page.units.s')],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first === -1) return `0${parts[3]![1]}`;
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n}${unit}`)
    .join(' ');
}
