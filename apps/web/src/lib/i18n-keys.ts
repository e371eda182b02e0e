import type trTR from '@solar/i18n/locales/tr_TR.json';
import type { TranslationKey } from '@solar/i18n';
import { DEFAULT_LOCALE } from '@solar/shared';
import { i18n } from './i18n-instance';

export type { TranslationKey };

/**
 * i18next's `t` takes only keys of the Turkish source file (the same set as TranslationKey), so an
 * unknown key does not compile and a key removed from tr_TR.json breaks every use.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof trTR };
  }
}

/** What helpers outside components take to translate: `t` of useTranslation, or any key → text function. */
export type Translate = (key: TranslationKey) => string;

/** The part of a key after `prefix.`, for every key under that prefix (`'faults.status'` → `'open' | …`). */
export type KeySuffix<P extends string> = TranslationKey extends infer K
  ? K extends `${P}.${infer Rest}`
    ? Rest
    : never
  : never;

/**
 * A key built at run time from a fixed prefix and a suffix whose type lists only suffixes that exist:
 * `prefixedKey('faults.status', fault.status)` compiles only while every status has its text.
 */
export function prefixedKey<P extends string, S extends KeySuffix<P>>(prefix: P, suffix: S): `${P}.${S}` {
  return `${prefix}.${suffix}`;
}

/**
 * True when the Turkish texts loaded so far have this key (keys that arrive from the server or a schema).
 * It asks the loaded texts, not an import of tr_TR.json: that import would put every Turkish text into
 * /login's first load. Before sign-in only the logged-out groups are loaded, and those hold every key a
 * logged-out page can receive (errors, validation, auth); the console starts after all of Turkish loaded.
 */
export function isTranslationKey(key: string): key is TranslationKey {
  let node: unknown = i18n.getResourceBundle(DEFAULT_LOCALE, 'translation');
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

/**
 * A key known only at run time (a server problem's message key, a zod issue, route data): itself when
 * tr_TR.json has it, else `fallback`, so the interface never shows a raw key.
 */
export function knownKey(key: string | null | undefined, fallback: TranslationKey): TranslationKey {
  return typeof key === 'string' && isTranslationKey(key) ? key : fallback;
}
