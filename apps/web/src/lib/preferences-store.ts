import { create } from 'zustand';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { STORAGE_KEYS, THEMES, type Locale, type Theme } from '@solar/shared';
import { changeLanguage, storedLocale } from './i18n';
import { readStorage, writeStorage } from './storage';

/** Each locale's Ant Design locale, loaded on demand so only the chosen one is downloaded. */
const ANTD_LOCALES: Record<Locale, () => Promise<{ default: AntdLocale }>> = {
  tr_TR: () => import('antd/es/locale/tr_TR'),
  en_US: () => import('antd/es/locale/en_US'),
  de_DE: () => import('antd/es/locale/de_DE'),
  mk_MK: () => import('antd/es/locale/mk_MK'),
};

/** The BCP 47 language of <html lang> for a locale (also dayjs's locale name). */
export const htmlLang = (locale: Locale): string => locale.slice(0, 2);

/** The theme saved in localStorage, or light. */
export function storedTheme(): Theme {
  const saved = readStorage(STORAGE_KEYS.theme);
  return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'light';
}

function applyThemeToDocument(theme: Theme): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

interface PreferencesState {
  locale: Locale;
  theme: Theme;
  /** Ant Design's texts for the current locale; undefined until loaded. */
  antdLocale: AntdLocale | undefined;
  /** `persist` false: applied, not saved as the browser's choice (the admin's default language). */
  setLocale: (locale: Locale, persist?: boolean) => Promise<void>;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
}

/** Interface language and theme, persisted in localStorage under `locale` and `theme`. */
export const usePreferences = create<PreferencesState>((set, get) => ({
  locale: storedLocale(),
  theme: storedTheme(),
  antdLocale: undefined,
  setLocale: async (locale, persist = true) => {
    const [antd] = await Promise.all([ANTD_LOCALES[locale](), changeLanguage(locale)]);
    if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(locale);
    if (persist) writeStorage(STORAGE_KEYS.locale, locale);
    set({ locale, antdLocale: antd.default });
  },
  setTheme: (theme) => {
    writeStorage(STORAGE_KEYS.theme, theme);
    applyThemeToDocument(theme);
    set({ theme });
  },
  toggleTheme: () => get().setTheme(get().theme === 'dark' ? 'light' : 'dark'),
}));

/** Loads the saved locale's texts and applies the saved theme before the first render. */
export async function initPreferences(): Promise<void> {
  const { locale, theme, setLocale } = usePreferences.getState();
  applyThemeToDocument(theme);
  try {
    await setLocale(locale);
  } catch (error) {
    // A locale chunk that fails to load leaves Ant Design in English; the console still works.
    console.error(error);
  }
}
