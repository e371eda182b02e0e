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
 * Ant Design's locale with its date pickers' input format set to the language's (datePattern): antd
 * writes YYYY-MM-DD for most languages, Turkish included. Set once on the ConfigProvider's locale, so
 * every DatePicker and RangePicker follows it.
 */
export function withPickerFormats(locale: AntdLocale, language: string): AntdLocale {
  const date = datePattern(language);
  const picker = locale.DatePicker;
  if (!picker) return locale;
  return {
    ...locale,
    DatePicker: {
      ...picker,
      lang: { ...picker.lang, fieldDateFormat: date, fieldDateTimeFormat: `${date} HH:mm:ss` },
    },
  };
}
