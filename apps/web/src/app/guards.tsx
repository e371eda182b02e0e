import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { hasPermission, type Page } from '@solar/shared';
import { FullPageSpin } from '../components/full-page-spin';
import { NotFoundPage } from '../components/not-found-page';
import { firstPermittedPath } from '../lib/routes';
import { useSession } from '../lib/session-store';
import { ConsoleLayout } from './page-registry';
import { RouterPageNav } from './router-page-nav';

/** Waits for a saved token to be checked before any route decides (spec §4). */
export function SessionGate() {
  const status = useSession((s) => s.status);
  return status === 'restoring' ? <FullPageSpin /> : <Outlet />;
}

/** `/`: the login page when logged out, the first permitted page when logged in. */
export function IndexRedirect() {
  const user = useSession((s) => s.user);
  return <Navigate to={user ? firstPermittedPath(user) : '/login'} replace />;
}

/** Logged-out-only pages (/login): a logged-in user goes to the first permitted page. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.user);
  if (user) return <Navigate to={firstPermittedPath(user)} replace />;
  return (
    <Suspense fallback={<FullPageSpin />}>
      <RouterPageNav>{children}</RouterPageNav>
    </Suspense>
  );
}

/** Pages open in both states (forgot and reset password). */
export function Public({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<FullPageSpin />}>
      <RouterPageNav>{children}</RouterPageNav>
    </Suspense>
  );
}

/** The logged-in layout; logged out, the console paths do not exist (spec §2: 404). */
export function RequireAuth() {
  const user = useSession((s) => s.user);
  if (!user) return <NotFoundPage />;
  return (
    <Suspense fallback={<FullPageSpin />}>
      <ConsoleLayout />
    </Suspense>
  );
}

/** A page that needs `view` on its permission page; without it, the first permitted page. */
export function RequirePermission({ page, children }: { page: Page; children: ReactNode }) {
  const user = useSession((s) => s.user);
  if (!user) return <NotFoundPage />;
  if (!hasPermission(user.permissions, page, 'view'))
    return <Navigate to={firstPermittedPath(user)} replace />;
  return children;
}

/** Any other path: 404 when logged out, the first permitted page when logged in. */
export function CatchAll() {
  const user = useSession((s) => s.user);
  return user ? <Navigate to={firstPermittedPath(user)} replace /> : <NotFoundPage />;
}
