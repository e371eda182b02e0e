import mk from 'dayjs/locale/mk';
import { runtimeHas } from './intl-tag';

export { intlTag } from './intl-tag';

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
