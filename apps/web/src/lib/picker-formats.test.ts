import dayjs from 'dayjs';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { describe, expect, it } from 'vitest';
import { datePattern, withPickerFormats } from './picker-formats';

describe('date picker formats', () => {
  it("writes a date as the page's Intl dates do, with the full year", () => {
    expect(datePattern('tr_TR')).toBe('DD.MM.YYYY');
    expect(datePattern('de_DE')).toBe('DD.MM.YYYY');
    expect(datePattern('en_US')).toBe('MM/DD/YYYY');
    expect(datePattern('mk_MK')).toBe('DD.MM.YYYY');
    expect(dayjs('2026-11-29').format(datePattern('tr_TR'))).toBe('29.11.2026');
  });

  it("sets the pickers' input formats on Ant Design's locale and keeps its texts", () => {
    const antd = {
      locale: 'tr',
      DatePicker: { lang: { locale: 'tr_TR', placeholder: 'Tarih seç' }, timePickerLocale: {} },
    } as unknown as AntdLocale;
    const set = withPickerFormats(antd, 'tr_TR');
    expect(set.DatePicker?.lang).toMatchObject({
      placeholder: 'Tarih seç',
      fieldDateFormat: 'DD.MM.YYYY',
      fieldDateTimeFormat: 'DD.MM.YYYY HH:mm:ss',
    });
    // The loaded locale itself is left as it was.
    expect(antd.DatePicker?.lang).not.toHaveProperty('fieldDateFormat');
  });
});
