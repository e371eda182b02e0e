import type { Locale as AntdLocale } from 'antd/es/locale';
import { intlTag } from './intl-tag';

/** dayjs tokens of the parts of a numeric date as Intl names them. */
const TOKENS: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {
  day: 'DD',
  month: 'MM',
  year: 'YYYY',
};

/**
 * The dayjs pattern of a calendar date in the interface language, in the order and with the separators
 * the console's other dates use (Intl's, lib/plant-time.ts), the year in full so that a typed date is
 * never ambiguous: DD.MM.YYYY in Turkish, German and Macedonian, MM/DD/YYYY in English.
 */
export function datePattern(language: string): string {
  const parts = new Intl.DateTimeFormat(intlTag(language), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatToParts(Date.UTC(2000, 11, 31));
  // Separators only, none after the last part: a word some locales add (Macedonian's year "г.") would
  // have to be typed too.
  return parts
    .map((p) => TOKENS[p.type] ?? (p.type === 'literal' ? p.value.replace(/[^\s./-]/g, '') : ''))
    .join('')
    .replace(/[^A-Z]+$/, '');
}

/**
 * The dayjs pattern of a month in the interface language: the date's pattern without its day, so a month
 * reads as the page's dates do (MM.YYYY in Turkish, German and Macedonian, MM/YYYY in English). Intl's own
 * month-and-year is no guide: German writes it 12/2000 there while its dates are 31.12.2000.
 */
export function monthPattern(language: string): string {
  return datePattern(language).replace(/DD[^A-Z]+(?=[A-Z])|[^A-Z]+DD$/, '');
}

/** A year is written in full in every language of the console. */
export const YEAR_PATTERN = 'YYYY';

/**
 * Ant Design's locale with its date, month and year pickers' input formats set to the language's
 * (datePattern, monthPattern): antd writes YYYY-MM-DD and YYYY-MM for most languages, Turkish included.
 * Set once on the ConfigProvider's locale, so every DatePicker and RangePicker follows it, whatever its
 * `picker`.
 */
export function withPickerFormats(locale: AntdLocale, language: string): AntdLocale {
  const date = datePattern(language);
  const picker = locale.DatePicker;
  if (!picker) return locale;
  return {
    ...locale,
    DatePicker: {
      ...picker,
      lang: {
        ...picker.lang,
        fieldDateFormat: date,
        fieldDateTimeFormat: `${date} HH:mm:ss`,
        fieldMonthFormat: monthPattern(language),
        fieldYearFormat: YEAR_PATTERN,
      },
    },
  };
}
