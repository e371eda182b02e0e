import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@solar/shared';
import { usePreferences } from '../lib/preferences-store';

/** The four locales as a row of small buttons (logged-out pages, where a dropdown menu would cost more). */
export function LanguageButtons() {
  const { t } = useTranslation();
  const locale = usePreferences((s) => s.locale);
  const setLocale = usePreferences((s) => s.setLocale);
  return (
    <div
      className="language-buttons"
      role="group"
      aria-label={t('languages.label')}
      data-testid="language-switcher"
      data-locale={locale}
    >
      {LOCALES.map((l) => (
        <Button
          key={l}
          size="small"
          type={l === locale ? 'primary' : 'text'}
          title={t(`languages.${l}`)}
          aria-pressed={l === locale}
          onClick={() => void setLocale(l)}
          data-testid={`language-option-${l}`}
        >
          {l.slice(0, 2).toUpperCase()}
        </Button>
      ))}
    </div>
  );
}
