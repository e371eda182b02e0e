import type { ThemeConfig } from 'antd/es/config-provider';
import theme from 'antd/es/theme';

/** Brand colours shared by both themes; the algorithm derives the rest. */
const BRAND = {
  colorPrimary: '#1668dc',
  borderRadius: 8,
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
};
const SIDER_BG = '#0c1b33';

/**
 * Secondary, description and placeholder text strong enough for WCAG 2.1 AA (4.5:1) on the card and page
 * backgrounds: Ant Design's defaults (45 % and 25 % black or white) measure 3.3:1 and 1.8:1.
 */
const READABLE_TEXT = {
  light: {
    // Links default to Ant Design's info blue (#1677ff, 4.1:1 on white); the brand blue measures 5:1.
    colorLink: '#1668dc',
    // Danger buttons and error text default to #ff4d4f (3.3:1 on white); red-7 measures 5.6:1.
    colorError: '#cf1322',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  },
  dark: {
    colorLink: '#4096ff',
    // The derived primary text (#1554ad) is 2.8:1 on the dark layout; a lighter step of the brand blue.
    colorPrimaryText: '#4096ff',
    colorTextSecondary: 'rgba(255, 255, 255, 0.7)',
    colorTextTertiary: 'rgba(255, 255, 255, 0.62)',
    colorTextDescription: 'rgba(255, 255, 255, 0.62)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)',
  },
};

function consoleTheme(dark: boolean): ThemeConfig {
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { ...BRAND, ...READABLE_TEXT[dark ? 'dark' : 'light'] },
    components: {
      Layout: {
        siderBg: SIDER_BG,
        triggerBg: '#091528',
        headerBg: dark ? '#141414' : '#ffffff',
        headerPadding: '0 20px',
        bodyBg: dark ? '#0a0a0a' : '#f3f5f9',
      },
      // A danger button's text follows colorError, which the dark algorithm derives as #dc4446 (4.3:1 on the
      // dark card); a lighter red reads 7:1.
      Button: dark ? { colorError: '#ff7875' } : {},
      // The selected tab's text follows colorPrimary (#165bbe in dark: 2.9:1 on a dark card); the readable step.
      Tabs: dark ? { itemSelectedColor: '#4096ff', itemHoverColor: '#69b1ff' } : {},
      Menu: {
        darkItemBg: SIDER_BG,
        darkSubMenuItemBg: '#091528',
        darkItemSelectedBg: '#1668dc',
        // Ant Design's 65 % white is faint on the navy sider; the labels and icons follow this colour.
        darkItemColor: 'rgba(255, 255, 255, 0.78)',
      },
    },
  };
}

/** The console's Ant Design theme per mode, built once so the provider gets a stable object. */
export const CONSOLE_THEMES = { light: consoleTheme(false), dark: consoleTheme(true) } as const;
