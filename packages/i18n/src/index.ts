import trTR from '../locales/tr_TR.json' with { type: 'json' };
import enUS from '../locales/en_US.json' with { type: 'json' };
import deDE from '../locales/de_DE.json' with { type: 'json' };
import mkMK from '../locales/mk_MK.json' with { type: 'json' };

/** Texts are nested objects of strings; the Turkish file is the source of truth for keys. */
export type Messages = { [key: string]: string | Messages };
export type LocaleCode = 'tr_TR' | 'en_US' | 'de_DE' | 'mk_MK';

/** The dotted path of every string leaf of a nested message object (`{ a: { b: 'x' } }` → `'a.b'`). */
export type LeafKeys<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${LeafKeys<T[K]>}`;
}[keyof T & string];

/**
 * Every translation key, derived from the Turkish source file as Excalidraw derives its keys from its
 * source locale: a key missing from tr_TR.json is a type error wherever it is used.
 */
export type TranslationKey = LeafKeys<typeof trTR>;

export const resources: Record<LocaleCode, Messages> = {
  tr_TR: trTR,
  en_US: enUS,
  de_DE: deDE,
  mk_MK: mkMK,
};

/** Every leaf key as a dotted path, e.g. `validation.required`. */
export function flattenKeys(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : flattenKeys(value, `${prefix}${key}.`),
  );
}

/** Looks a dotted key up; falls back to Turkish, then to the key itself. */
export function translate(
  locale: LocaleCode,
  key: string,
  vars: Record<string, string | number> = {},
): string {
  const lookup = (messages: Messages): string | undefined => {
    let node: string | Messages | undefined = messages;
    for (const part of key.split('.')) {
      if (typeof node !== 'object') return undefined;
      node = node[part];
    }
    return typeof node === 'string' ? node : undefined;
  };
  const text = lookup(resources[locale]) ?? lookup(resources.tr_TR) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}
