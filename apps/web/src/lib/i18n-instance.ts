import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from '@solar/i18n';
import { app, auth, errors, languages, theme, validation } from '@solar/i18n/locales/tr_TR.json';
import { DEFAULT_LOCALE, LOCALES } from '@solar/shared';

/**
 * The Turkish texts of the logged-out pages, bundled so that /login shows at once. Only these groups
 * of the file reach the first load (named JSON imports are tree-shaken); the rest of Turkish loads
 * with the console (`loadAllTexts`).
 */
const trLoggedOut: Messages = { app, auth, errors, languages, theme, validation };

/** The one i18next instance of the console; texts come from @solar/i18n, Turkish is the fallback. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { [DEFAULT_LOCALE]: { translation: trLoggedOut } },
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  nonExplicitSupportedLngs: false,
  load: 'currentOnly',
  interpolation: { escapeValue: false },
  initAsync: false,
});
