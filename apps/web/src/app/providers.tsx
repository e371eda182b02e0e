import { lazy, Suspense, useState, type ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { usePreferences } from '../lib/preferences-store';
import { queryClient } from '../lib/query-client';
import { useSession } from '../lib/session-store';
import { CONSOLE_THEMES } from './theme';

/** Ant Design's message API for code outside React; loaded with the first session (see below). */
const NotifierBridge = lazy(() => import('./notifier-bridge'));

/** Query client, translations, Ant Design theme/locale and the message context around the app. */
export function Providers({ children }: { children: ReactNode }) {
  const mode = usePreferences((s) => s.theme);
  const antdLocale = usePreferences((s) => s.antdLocale);
  const dark = mode === 'dark';
  // Toasts only follow logged-in calls (the logged-out calls show their results on the page), so the
  // message code loads with the first session (or a saved one being restored) and then stays, to show
  // 'session expired' after a 401, also when the 401 answers the restore of an expired saved token.
  const hasSession = useSession((s) => s.status !== 'anonymous');
  const [toasts, setToasts] = useState(hasSession);
  if (hasSession && !toasts) setToasts(true);
  return (
    <QueryClientProvider client={queryClient}>
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
    </QueryClientProvider>
  );
}
