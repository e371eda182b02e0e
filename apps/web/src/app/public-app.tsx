import '../lib/zod-config';
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { FullPageSpin } from '../components/full-page-spin';
import { setNavigator } from '../lib/navigation';
import { PageNavContext, type PageNav } from '../lib/page-nav';
import LoginPage from '../features/auth/login-page';
import { Providers } from './providers';

// The login page is part of this entry (no second round trip before the form shows); the others load
// on demand.
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const ConfirmEmailPage = lazy(() => import('../features/auth/confirm-email-page'));

interface PublicMatch {
  Page: ComponentType;
  params: Record<string, string>;
}

/** A path segment decoded; a malformed escape stays as it is (the link check then answers it). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The logged-out pages (spec §2) by path; any other path belongs to the console's router. */
export function matchPublicPath(pathname: string): PublicMatch | null {
  if (/^\/login\/?$/.test(pathname)) return { Page: LoginPage, params: {} };
  if (/^\/forgot-password\/?$/.test(pathname)) return { Page: ForgotPasswordPage, params: {} };
  const reset = /^\/reset-password\/([^/]+)\/?$/.exec(pathname);
  if (reset) return { Page: ResetPasswordPage, params: { guid: safeDecode(reset[1]!) } };
  const confirm = /^\/confirm-email\/([^/]+)\/?$/.exec(pathname);
  if (confirm) return { Page: ConfirmEmailPage, params: { token: safeDecode(confirm[1]!) } };
  return null;
}

/** react-router's history entry shape, so that the console's router reads the state we leave behind. */
interface HistoryEntry {
  usr: unknown;
  key: string;
  idx: number;
}

const currentEntry = (): Partial<HistoryEntry> => (window.history.state ?? {}) as Partial<HistoryEntry>;
const readLocation = () => ({ pathname: window.location.pathname, state: currentEntry().usr ?? null });

/**
 * The logged-out entry: /login, /forgot-password, /reset-password/:guid and /confirm-email/:token with the shared providers and
 * a history-based router of three paths, without react-router, TanStack Query or the console's route
 * tree (they load with the session). A navigation anywhere else hands over to the console (`onLeave`).
 */
export function PublicApp({ onLeave }: { onLeave: () => void }) {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const onPopState = () => {
      if (matchPublicPath(window.location.pathname)) setLocation(readLocation());
      else onLeave();
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [onLeave]);

  const match = matchPublicPath(location.pathname);
  const nav = useMemo<PageNav>(() => {
    const navigate: PageNav['navigate'] = (to, options = {}) => {
      const idx = currentEntry().idx ?? 0;
      const entry: HistoryEntry = {
        usr: options.state ?? null,
        key: Math.random().toString(36).slice(2, 10),
        idx: options.replace ? idx : idx + 1,
      };
      if (options.replace) window.history.replaceState(entry, '', to);
      else window.history.pushState(entry, '', to);
      if (matchPublicPath(window.location.pathname)) setLocation(readLocation());
      else onLeave();
    };
    return { navigate, state: location.state, params: match?.params ?? {} };
  }, [location, match?.params, onLeave]);

  // The API client's 401 handling navigates through here until the console takes over.
  useEffect(() => setNavigator((to) => nav.navigate(to)), [nav]);

  if (!match) return <FullPageSpin />;
  const { Page } = match;
  return (
    <Providers>
      <PageNavContext value={nav}>
        <Suspense fallback={<FullPageSpin />}>
          <Page key={location.pathname} />
        </Suspense>
      </PageNavContext>
    </Providers>
  );
}
