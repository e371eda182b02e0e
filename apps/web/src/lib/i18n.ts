import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from '@solar/i18n';
import trTR from '@solar/i18n/locales/tr_TR.json';
import { DEFAULT_LOCALE, LOCALES, STORAGE_KEYS, type Locale } from '@solar/shared';
import { isTranslationKey } from './i18n-keys';
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
 * Texts of the other locales, loaded on demand from @solar/i18n's locale files. Turkish, the default
 * and the fallback, is bundled; the others cost nothing until chosen.
 */
const LOADERS: Record<Locale, () => Promise<{ default: Messages }>> = {
  tr_TR: () => Promise.resolve({ default: trTR }),
  en_US: () => import('@solar/i18n/locales/en_US.json'),
  de_DE: () => import('@solar/i18n/locales/de_DE.json'),
  mk_MK: () => import('@solar/i18n/locales/mk_MK.json'),
};

/** The one i18next instance of the console; texts come from @solar/i18n, Turkish is the fallback. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { [DEFAULT_LOCALE]: { translation: trTR } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  nonExplicitSupportedLngs: false,
  load: 'currentOnly',
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** Loads a locale's texts (once) and switches i18next to it. */
export async function changeLanguage(locale: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    const { default: messages } = await LOADERS[locale]();
    i18n.addResourceBundle(locale, 'translation', messages);
  }
  await i18n.changeLanguage(locale);
}

/** Translates a key from outside React (API client, validators); a key tr_TR.json lacks shows as itself. */
export const translate = (key: string, vars?: Record<string, unknown>): string =>
  isTranslationKey(key) ? i18n.t(key, vars) : key;
