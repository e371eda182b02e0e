import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@solar/shared';
import { isLocale } from '../lib/i18n';
import { usePreferences } from '../lib/preferences-store';

/** Two-letter badge of a locale (`tr_TR` → `TR`). */
const shortCode = (locale: string) => locale.slice(0, 2).toUpperCase();

/** Chooses the interface language among the four locales (saved in localStorage `locale`). */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const locale = usePreferences((s) => s.locale);
  const setLocale = usePreferences((s) => s.setLocale);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({
          key: l,
          label: t(`languages.${l}`),
          extra: shortCode(l),
          'data-testid': `language-option-${l}`,
        })),
        onClick: ({ key }) => {
          if (isLocale(key)) void setLocale(key);
        },
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        className="language-switcher-button"
        // Holds the visible code, so speech users can say what they see (WCAG 2.5.3 label in name).
        aria-label={`${t('languages.label')}: ${shortCode(locale)}`}
        data-testid="language-switcher"
        data-locale={locale}
      >
        {shortCode(locale)}
      </Button>
    </Dropdown>
  );
}
