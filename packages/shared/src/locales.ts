/** Interface languages; tr_TR is the default and the source of truth for texts. */
export const LOCALES = ['tr_TR', 'en_US', 'de_DE', 'mk_MK'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'tr_TR';

/** `language_id` of a user (spec §3) ↔ locale. */
export const LANGUAGE_IDS: Record<number, Locale> = { 1: 'tr_TR', 2: 'en_US', 3: 'de_DE', 4: 'mk_MK' };
export const languageIdOf = (locale: Locale): number =>
  Number(Object.entries(LANGUAGE_IDS).find(([, l]) => l === locale)?.[0] ?? 1);
export const localeOfLanguageId = (id: number | null | undefined): Locale =>
  LANGUAGE_IDS[id ?? 1] ?? DEFAULT_LOCALE;

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** localStorage keys fixed by the spec (§4, §9; docs/spec-differences.md). */
export const STORAGE_KEYS = {
  token: 'token',
  locale: 'locale',
  theme: 'theme',
  loginBackground: 'loginBackgroundIndex',
} as const;

/** Anti-forgery cookie and header names (spec §9). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Login slider (spec §9 and docs/spec-differences.md: 17 slots, 5000 ms; stored index cycles 1-9). */
export const LOGIN_SLIDES = 17;
export const LOGIN_SLIDE_MS = 5000;
export const LOGIN_BACKGROUND_INDEX_MAX = 9;
/** Menu width in px (spec §9). */
export const MENU_WIDTH = 250;
/** Substation alarm refresh (spec §9). */
export const SUBSTATION_ALARM_POLL_MS = 3 * 60 * 1000;
