import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '@solar/shared';
import { usePreferences } from '../../lib/preferences-store';
import { readStorage } from '../../lib/storage';
import { usePublicSettings } from './api/settings';

/**
 * The site name and logo the admin set (else the translated product name and the built-in mark), and the
 * admin's default language
 * applied to a browser that never chose one, without saving it as that browser's choice: a later change
 * of the default reaches it too.
 */
export function useSiteSettings(): { siteName: string; logoUrl: string | null } {
  const { t } = useTranslation();
  const { data } = usePublicSettings();
  const locale = usePreferences((s) => s.locale);
  const setLocale = usePreferences((s) => s.setLocale);
  const fallback = data?.default_language;
  useEffect(() => {
    if (fallback && fallback !== locale && readStorage(STORAGE_KEYS.locale) === null)
      void setLocale(fallback, false);
  }, [fallback, locale, setLocale]);
  return { siteName: data?.site_name ?? t('app.name'), logoUrl: data?.logo_url ?? null };
}
