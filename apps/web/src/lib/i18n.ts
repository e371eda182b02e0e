import type { Messages } from '@solar/i18n';
import { DEFAULT_LOCALE, LOCALES, STORAGE_KEYS, type Locale } from '@solar/shared';
import { isTranslationKey } from './i18n-keys';
import { i18n } from './i18n-instance';
import { readStorage } from './storage';

/** True for one of the four interface locales. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The locale saved in localStorage, or Turkish (spec §4: the default locale at start). */
export function storedLocale(): Locale {
  const saved = readStorage(STORAGE_KEYS.locale);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

/**
 * Texts of each locale, loaded on demand from @solar/i18n's locale files. The whole Turkish file comes
 * as text (`?raw`): a module of its own, so the JSON module of i18n-instance.ts keeps only the groups it
 * bundles.
 */
const LOADERS: Record<Locale, () => Promise<{ default: Messages }>> = {
  tr_TR: async () => {
    const { default: text } = await import('@solar/i18n/locales/tr_TR.json?raw');
    return { default: JSON.parse(text) as Messages };
  },
  en_US: () => import('@solar/i18n/locales/en_US.json'),
  de_DE: () => import('@solar/i18n/locales/de_DE.json'),
  mk_MK: () => import('@solar/i18n/locales/mk_MK.json'),
};

export { i18n };

/** Loads a locale's texts (once) and switches i18next to it. */
export async function changeLanguage(locale: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    const { default: messages } = await LOADERS[locale]();
    i18n.addResourceBundle(locale, 'translation', messages);
  }
  await i18n.changeLanguage(locale);
}

/** Loads every text of Turkish (the fallback) and of the current locale: the console shows them all. */
export async function loadAllTexts(): Promise<void> {
  const locales = [...new Set([DEFAULT_LOCALE, i18n.language as Locale])].filter(isLocale);
  await Promise.all(
    locales.map(async (locale) => {
      const { default: messages } = await LOADERS[locale]();
      i18n.addResourceBundle(locale, 'translation', messages, true, true);
    }),
  );
}

/** Translates a key from outside React (API client, validators); a key tr_TR.json lacks shows as itself. */
export const translate = (key: string, vars?: Record<string, unknown>): string =>
  isTranslationKey(key) ? i18n.t(key, vars) : key;
