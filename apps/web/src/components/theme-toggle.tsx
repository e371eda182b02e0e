import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import MoonOutlined from '@ant-design/icons/MoonOutlined';
import SunOutlined from '@ant-design/icons/SunOutlined';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../lib/preferences-store';

/** Switches between the light and dark theme (saved in localStorage `theme`). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = usePreferences((s) => s.theme);
  const toggleTheme = usePreferences((s) => s.toggleTheme);
  const label = t(theme === 'dark' ? 'theme.light' : 'theme.dark');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        shape="circle"
        aria-label={t('theme.toggle')}
        icon={theme === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={toggleTheme}
        data-testid="theme-toggle"
        data-theme={theme}
      />
    </Tooltip>
  );
}
