import { describe, expect, it } from 'vitest';
import { flattenKeys, resources, translate, type LocaleCode } from './index';

const source = flattenKeys(resources.tr_TR).sort();
const others = (Object.keys(resources) as LocaleCode[]).filter((l) => l !== 'tr_TR');
const leaves = (locale: LocaleCode) =>
  flattenKeys(resources[locale]).map((key) => [key, translate(locale, key)] as const);

describe('locale files', () => {
  it('the Turkish source has keys', () => {
    expect(source.length).toBeGreaterThan(50);
  });

  it.each(others)('%s has exactly the keys of tr_TR', (locale) => {
    const keys = flattenKeys(resources[locale]).sort();
    expect(
      keys.filter((k) => !source.includes(k)),
      'keys not in tr_TR',
    ).toEqual([]);
    expect(
      source.filter((k) => !keys.includes(k)),
      'keys missing',
    ).toEqual([]);
  });

  it.each(Object.keys(resources) as LocaleCode[])('%s has no empty text', (locale) => {
    expect(leaves(locale).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it('every {{placeholder}} of a Turkish text appears in each translation', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const locale of others) {
      for (const key of source) {
        const raw = (l: LocaleCode) =>
          key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources[l]);
        expect(placeholders(raw(locale) as string), `${locale} ${key}`).toEqual(
          placeholders(raw('tr_TR') as string),
        );
      }
    }
  });

  it('Macedonian texts are written in Cyrillic', () => {
    const latinOnly = leaves('mk_MK').filter(
      ([, text]) =>
        /[A-Za-z]{4,}/.test(
          text.replace(
            /\{\{\s*\w+\s*\}\}|IP|IPv[46]|URL|CSV|XLSX|PDF|MQTT|Modbus|TCP|RTU|HTTP|API|SunSpec|IEC|kWp?h?|MW|SSE|JSON|E-?mail/g,
            '',
          ),
        ) && !/[\u0400-\u04FF]/.test(text),
    );
    expect(latinOnly).toEqual([]);
  });

  it('Turkish texts use Turkish letters where Turkish words need them', () => {
    const all = leaves('tr_TR')
      .map(([, text]) => text)
      .join(' ');
    expect(all).toMatch(/[çğıöşüÇĞİÖŞÜ]/);
    // The ASCII spellings of common words are a sign of lost characters.
    expect(all).not.toMatch(/\b(Yukleniyor|Sifre|Kullanici|Ariza|Basarili|Basarisiz|Giris)\b/);
  });
});
