import { CONSOLE_ROUTES, hasPermission, type ConsoleRoute, type Permission } from '@solar/shared';
import { knownKey, type TranslationKey } from './i18n-keys';

/** Routes of the table the permissions allow (view on the route's page, spec §2). */
export function permittedRoutes(permissions: readonly Permission[]): ConsoleRoute[] {
  return CONSOLE_ROUTES.filter((route) => hasPermission(permissions, route.page, 'view'));
}

/** A menu entry: a route of the table whose title key is checked against tr_TR.json. */
export type MenuRoute = Omit<ConsoleRoute, 'titleKey'> & { titleKey: TranslationKey };

/** Permitted routes that appear in the menu, in table order. */
export function menuRoutes(permissions: readonly Permission[]): MenuRoute[] {
  return permittedRoutes(permissions)
    .filter((route) => route.inMenu)
    .map((route) => ({ ...route, titleKey: knownKey(route.titleKey, 'pages.notFound') }));
}

/** Where a logged-in user lands: the first permitted menu page, else their own profile. */
export function firstPermittedPath(user: { id: number; permissions: readonly Permission[] }): string {
  return menuRoutes(user.permissions)[0]?.path ?? `/profile/${user.id}`;
}

/** `data-testid` of a menu entry: `menu-` and the route path without its slash (`menu-map`). */
export function menuTestId(path: string): string {
  return `menu-${path.replace(/^\//, '')}`;
}
