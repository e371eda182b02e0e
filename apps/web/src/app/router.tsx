import { createBrowserRouter, type RouteObject } from 'react-router';
import { CONSOLE_ROUTES } from '@solar/shared';
import { setNavigator } from '../lib/navigation';
import {
  CatchAll,
  IndexRedirect,
  Public,
  PublicOnly,
  RequireAuth,
  RequirePermission,
  SessionGate,
} from './guards';
import {
  CONSOLE_PAGES,
  ConfirmEmailPage,
  ForgotPasswordPage,
  LoginPage,
  ProfilePage,
  ResetPasswordPage,
} from './page-registry';
import type { RouteHandle } from './route-handle';

/** The permission-guarded routes, built from the shared route table. */
const consoleRoutes: RouteObject[] = CONSOLE_ROUTES.map((route) => {
  const Page = CONSOLE_PAGES[route.path];
  if (!Page) throw new Error(`no page for ${route.path}`);
  return {
    path: route.path,
    handle: { titleKey: route.titleKey } satisfies RouteHandle,
    element: (
      <RequirePermission page={route.page}>
        <Page />
      </RequirePermission>
    ),
  };
});

/** The whole route tree (spec §2). */
export const routes: RouteObject[] = [
  {
    element: <SessionGate />,
    children: [
      { path: '/', element: <IndexRedirect /> },
      {
        path: '/login',
        element: (
          <PublicOnly>
            <LoginPage />
          </PublicOnly>
        ),
      },
      {
        path: '/forgot-password',
        element: (
          <Public>
            <ForgotPasswordPage />
          </Public>
        ),
      },
      {
        path: '/reset-password/:guid',
        element: (
          <Public>
            <ResetPasswordPage />
          </Public>
        ),
      },
      {
        path: '/confirm-email/:token',
        element: (
          <Public>
            <ConfirmEmailPage />
          </Public>
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          ...consoleRoutes,
          {
            path: '/profile/:userId',
            handle: { titleKey: 'pages.profile' } satisfies RouteHandle,
            element: <ProfilePage />,
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

/** Creates the browser router and lets code outside React (401 handling) navigate with it. */
export function createRouter() {
  const router = createBrowserRouter(routes);
  setNavigator((to) => void router.navigate(to));
  return router;
}
