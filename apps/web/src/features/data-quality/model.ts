import type { DataQualityFlag } from '@solar/shared';
import { formatInZone, zoneLabel } from '../../lib/plant-time';
import { intlTag } from '../../lib/intl';

/** Where a flag stands for the operator. */
export type FlagStatus = 'open' | 'accepted' | 'informational';

export function flagStatus(flag: Pick<DataQualityFlag, 'accepted_at' | 'informational'>): FlagStatus {
  if (flag.accepted_at !== null) return 'accepted';
  return flag.informational ? 'informational' : 'open';
}

/** A share (0…1) as a percentage with one decimal; a share above 0 never shows as 0 %. */
export function formatShare(share: number, language: string): string {
  const format = new Intl.NumberFormat(intlTag(language), { style: 'percent', maximumFractionDigits: 1 });
  if (share > 0 && share < 0.001) return `< ${format.format(0.001)}`;
  return format.format(share);
}

/**
 * A flag's period [from, to) on the plant's clock: "28.11.2026 10:35–11:00" within a day (a period that ends
 * at midnight ends at 24:00 of its day rather than 00:00 of the next), both dates otherwise; the zone's
 * name follows when the browser's clock reads otherwise.
 */
export function periodText(
  flag: Pick<DataQualityFlag, 'from' | 'to' | 'local_day'>,
  timeZone: string,
  language: string,
  browserZone?: string,
): string {
  const from = Date.parse(flag.from);
  const to = Date.parse(flag.to);
  const date = (ms: number) => formatInZone(ms, timeZone, language, 'date');
  const time = (ms: number) => formatInZone(ms, timeZone, language, 'time');
  // The plant's calendar day of an instant, language-independent, to compare.
  const dayOf = (ms: number) => formatInZone(ms, timeZone, 'en', 'date');
  let text: string;
  if (dayOf(from) === dayOf(to)) text = `${date(from)} ${time(from)}–${time(to)}`;
  // The last millisecond is still the first day: `to` is exactly the next midnight.
  else if (dayOf(from) === dayOf(to - 1)) text = `${date(from)} ${time(from)}–24:00`;
  else text = `${date(from)} ${time(from)} – ${date(to)} ${time(to)}`;
  const zone = zoneLabel(timeZone, [from, to], browserZone);
  return zone ? `${text} (${zone})` : text;
}

/** The figures of a flag's detail ("missing 5 · jumpKwh 83.2"), numbers in the reader's language. */
export function detailText(detail: Record<string, number>, language: string): string {
  const format = new Intl.NumberFormat(intlTag(language), { maximumFractionDigits: 2 });
  return Object.entries(detail)
    .map(([key, value]) => `${key} ${format.format(value)}`)
    .join(' · ');
}

/** The tag colour of a flag: grey once accepted, blue for information, red for counters, else orange. */
export function reasonColor(flag: Pick<DataQualityFlag, 'reason' | 'accepted_at' | 'informational'>): string {
  const status = flagStatus(flag);
  if (status === 'accepted') return 'default';
  if (status === 'informational') return 'blue';
  return flag.reason.startsWith('counter_') || flag.reason === 'day_energy_impossible' ? 'red' : 'orange';
}
