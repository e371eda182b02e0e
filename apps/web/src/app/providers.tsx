import { lazy, Suspense, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { hasQueuedToasts, onToastQueued } from '../lib/notify';
import { withPickerFormats } from '../lib/picker-formats';
import { usePreferences } from '../lib/preferences-store';
import { useSession } from '../lib/session-store';
import { CONSOLE_THEMES } from './theme';

/** Ant Design's message API for code outside React; loaded with the first session (see below). */
const NotifierBridge = lazy(() => import('./notifier-bridge'));

/**
 * Translations, Ant Design theme/locale and the message context around the app: what the logged-out
 * entry needs too (the console adds the query client, see app.tsx).
 */
export function Providers({ children }: { children: ReactNode }) {
  const mode = usePreferences((s) => s.theme);
  const antdTexts = usePreferences((s) => s.antdLocale);
  const language = usePreferences((s) => s.locale);
  // Every date picker types and shows dates as the page writes them (DD.MM.YYYY in Turkish).
  const antdLocale = useMemo(
    () => antdTexts && withPickerFormats(antdTexts, language),
    [antdTexts, language],
  );
  const dark = mode === 'dark';
  // Toasts only follow logged-in calls (the logged-out calls show their results on the page), so the
  // message code loads with the first session (or a saved one being restored) and then stays, to show
  // 'session expired' after a 401, also when the 401 answers the restore of an expired saved token.
  // A toast queued with no session (a saved token found invalid before this first rendered) loads it too.
  const hasSession = useSession((s) => s.status !== 'anonymous');
  const queued = useSyncExternalStore(onToastQueued, hasQueuedToasts);
  const [toasts, setToasts] = useState(hasSession || queued);
  if ((hasSession || queued) && !toasts) setToasts(true);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale} theme={CONSOLE_THEMES[dark ? 'dark' : 'light']}>
        {toasts && (
          <Suspense fallback={null}>
            <NotifierBridge />
          </Suspense>
        )}
        {children}
      </ConfigProvider>
    </I18nextProvider>
  );
}
