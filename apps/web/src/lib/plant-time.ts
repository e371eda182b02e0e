import { localDateParts, zoneOffsetMs } from '@solar/shared';
import { intlTag } from './intl';

/**
 * Times of a plant are read on the plant's clock: an operator compares them with the site's logbook and
 * with what the technician on site says. Each is formatted in the plant's IANA zone and carries the zone's
 * name when that clock differs from the reader's (the browser's), e.g. "14:33 (Europe/Skopje)".
 */

/** How much of an instant a cell or a chart shows. */
export type PlantTimeStyle = 'date' | 'time' | 'timeSeconds' | 'dateTime' | 'dateTimeSeconds';

const STYLE_OPTIONS: Record<PlantTimeStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'short' },
  time: { timeStyle: 'short' },
  timeSeconds: { timeStyle: 'medium' },
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
  dateTimeSeconds: { dateStyle: 'short', timeStyle: 'medium' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language, zone and style: building one costs far more than using it (long tables). */
function formatFor(language: string, timeZone: string, style: PlantTimeStyle): Intl.DateTimeFormat {
  const key = `${language}|${timeZone}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlTag(language), { ...STYLE_OPTIONS[style], timeZone });
    formats.set(key, format);
  }
  return format;
}

/** The zone the browser's clock runs in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * True when, at the instant `ms`, a clock in `timeZone` reads another time than the browser's clock. Zones
 * with the same offset (Europe/Skopje and Europe/Belgrade) need no label: the reader's clock agrees.
 */
export function differsFromBrowser(ms: number, timeZone: string, browserZone = browserTimeZone()): boolean {
  return zoneOffsetMs(ms, timeZone) !== zoneOffsetMs(ms, browserZone);
}

const toMs = (at: string | number): number => (typeof at === 'number' ? at : Date.parse(at));

/** The clock time of `at` in `timeZone`, without a label. */
export function formatInZone(
  at: string | number,
  timeZone: string,
  language: string,
  style: PlantTimeStyle = 'dateTime',
): string {
  return formatFor(language, timeZone, style).format(toMs(at));
}

/**
 * The clock time of `at` in the plant's zone, followed by the zone's name when the browser's clock reads
 * otherwise: "28.11.2026 14:33 (Europe/Skopje)". An empty text for a missing or unreadable time.
 */
export function formatPlantTime(
  at: string | number | null | undefined,
  timeZone: string,
  language: string,
  style: PlantTimeStyle = 'dateTime',
  browserZone = browserTimeZone(),
): string {
  if (at === null || at === undefined) return '';
  const ms = toMs(at);
  if (Number.isNaN(ms)) return '';
  const text = formatInZone(ms, timeZone, language, style);
  return differsFromBrowser(ms, timeZone, browserZone) ? `${text} (${timeZone})` : text;
}

/**
 * The zone's name for a chart's axis or caption, or null when the browser's clock agrees at every one of
 * the instants (a chart's first and last point, say).
 */
export function zoneLabel(
  timeZone: string,
  instants: readonly number[],
  browserZone = browserTimeZone(),
): string | null {
  return instants.some((ms) => differsFromBrowser(ms, timeZone, browserZone)) ? timeZone : null;
}

/**
 * The plant's calendar date (YYYY-MM-DD) at the instant `now`: a plant's "today" begins at its own
 * midnight, not the reader's (a browser in UTC-10 looking at an Istanbul plant after midnight there sees
 * the plant's new day).
 */
export function plantToday(timeZone: string, now: number = Date.now()): string {
  const { year, month, day } = localDateParts(now, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
