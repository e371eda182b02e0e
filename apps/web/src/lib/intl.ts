import mk from 'dayjs/locale/mk';

/**
 * Locales whose conventions another tag shares, for runtimes without their data. Chromium's bundled ICU
 * has no Macedonian: `Intl` silently formats `mk-MK` as en-US (11/22/26, 11:45 PM; 7,448,426.3). CLDR's
 * Macedonian writes d.M.yy, HH:mm and 7.448.426,3, which is what German formats numerically.
 */
const NUMERIC_TWIN: Record<string, string> = { mk: 'de-DE' };

/** Month names of the twinned locales, from dayjs's locale data (CLDR spelling). */
const NAMES: Record<
  string,
  Record<'month' | 'weekday', { long: readonly string[]; short: readonly string[] }>
> = {
  mk: {
    month: { long: mk.months as string[], short: (mk.monthsShort ?? mk.months) as string[] },
    weekday: { long: mk.weekdays ?? [], short: mk.weekdaysShort ?? mk.weekdays ?? [] },
  },
};

const supported = new Map<string, boolean>();
function runtimeHas(tag: string): boolean {
  let known = supported.get(tag);
  if (known === undefined) {
    known = Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0;
    supported.set(tag, known);
  }
  return known;
}

/** The BCP 47 tag to give `Intl` for an interface language (`mk_MK`): its own, or its numeric twin. */
export function intlTag(language: string): string {
  const tag = language.replace('_', '-');
  const base = tag.slice(0, 2);
  return runtimeHas(tag) || !NUMERIC_TWIN[base] ? tag : NUMERIC_TWIN[base];
}

/**
 * A month's name (`month0` 0–11) in the interface language. Twinned locales take theirs from dayjs, so a
 * Macedonian reader never sees German month names.
 */
export function monthName(month0: number, language: string, style: 'long' | 'short'): string {
  const tag = language.replace('_', '-');
  const own = NAMES[tag.slice(0, 2)];
  if (own && !runtimeHas(tag)) return own.month[style][month0] ?? '';
  return new Intl.DateTimeFormat(tag, { month: style, timeZone: 'UTC' }).format(Date.UTC(2000, month0, 1));
}

/** A weekday's name (`day0` 0 = Sunday … 6) in the interface language, as monthName does. */
export function weekdayName(day0: number, language: string, style: 'long' | 'short'): string {
  const tag = language.replace('_', '-');
  const own = NAMES[tag.slice(0, 2)];
  if (own && !runtimeHas(tag)) return own.weekday[style][day0] ?? '';
  // 2000-01-02 was a Sunday.
  return new Intl.DateTimeFormat(tag, { weekday: style, timeZone: 'UTC' }).format(
    Date.UTC(2000, 0, 2 + day0),
  );
}
