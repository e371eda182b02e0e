import dayjs from 'dayjs';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { describe, expect, it } from 'vitest';
import { datePattern, monthPattern, withPickerFormats } from './picker-formats';

describe('date picker formats', () => {
  it("writes a date as the page's Intl dates do, with the full year", () => {
    expect(datePattern('tr_TR')).toBe('DD.MM.YYYY');
    expect(datePattern('de_DE')).toBe('DD.MM.YYYY');
    expect(datePattern('en_US')).toBe('MM/DD/YYYY');
    expect(datePattern('mk_MK')).toBe('DD.MM.YYYY');
    expect(dayjs('2026-11-29').format(datePattern('tr_TR'))).toBe('29.11.2026');
  });

  it('writes a month as the page writes its dates, without the day', () => {
    expect(monthPattern('tr_TR')).toBe('MM.YYYY');
    expect(monthPattern('de_DE')).toBe('MM.YYYY');
    expect(monthPattern('mk_MK')).toBe('MM.YYYY');
    expect(monthPattern('en_US')).toBe('MM/YYYY');
    expect(dayjs('2026-11-01').format(monthPattern('tr_TR'))).toBe('11.2026');
    expect(dayjs('2026-11-01').format(monthPattern('en_US'))).toBe('11/2026');
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
      fieldMonthFormat: 'MM.YYYY',
      fieldYearFormat: 'YYYY',
    });
    expect(withPickerFormats(antd, 'en_US').DatePicker?.lang).toMatchObject({
      fieldMonthFormat: 'MM/YYYY',
      fieldYearFormat: 'YYYY',
    });
    // The loaded locale itself is left as it was.
    expect(antd.DatePicker?.lang).not.toHaveProperty('fieldDateFormat');
  });
});
