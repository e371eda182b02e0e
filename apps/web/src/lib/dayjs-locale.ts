import dayjs from 'dayjs';
import type { Locale } from '@solar/shared';

/** dayjs locale name and loader; English is built into dayjs. */
const DAYJS_LOCALES: Record<Locale, { name: string; load: () => Promise<unknown> }> = {
  tr_TR: { name: 'tr', load: () => import('dayjs/locale/tr') },
  en_US: { name: 'en', load: () => Promise.resolve() },
  de_DE: { name: 'de', load: () => import('dayjs/locale/de') },
  mk_MK: { name: 'mk', load: () => import('dayjs/locale/mk') },
};

/**
 * Loads and applies dayjs's locale. Called by the logged-in layout (the logged-out pages show no
 * dates, so dayjs stays out of the login bundle).
 */
export async function applyDayjsLocale(locale: Locale): Promise<void> {
  const { name, load } = DAYJS_LOCALES[locale];
  await load();
  dayjs.locale(name);
}
