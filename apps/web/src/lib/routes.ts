import { CONSOLE_ROUTES, hasPermission, type ConsoleRoute, type Permission } from '@solar/shared';

/** Routes of the table the permissions allow (view on the route's page, spec §2). */
export function permittedRoutes(permissions: readonly Permission[]): ConsoleRoute[] {
  return CONSOLE_ROUTES.filter((route) => hasPermission(permissions, route.page, 'view'));
}

/** Permitted routes that appear in the menu, in table order. */
export function menuRoutes(permissions: readonly Permission[]): ConsoleRoute[] {
  return permittedRoutes(permissions).filter((route) => route.inMenu);
}

/** Where a logged-in user lands: the first permitted menu page, else their own profile. */
export function firstPermittedPath(user: { id: number; permissions: readonly Permission[] }): string {
  return menuRoutes(user.permissions)[0]?.path ?? `/profile/${user.id}`;
}

/** `data-testid` of a menu entry: `menu-` and the route path without its slash (`menu-map`). */
export function menuTestId(path: string): string {
  return `menu-${path.replace(/^\//, '')}`;
}
