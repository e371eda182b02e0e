import { hasPermission, type Method, type Page } from '@solar/shared';
import { useSession } from './session-store';

/** What the signed-in user may do on a page (admin holds every pair). */
export function useCan(page: Page): Record<Method, boolean> {
  const permissions = useSession((s) => s.user?.permissions ?? []);
  return {
    view: hasPermission(permissions, page, 'view'),
    create: hasPermission(permissions, page, 'create'),
    update: hasPermission(permissions, page, 'update'),
    delete: hasPermission(permissions, page, 'delete'),
  };
}

/** True for the administrator, the only user outside every company (docs/spec-differences.md). */
export function useIsAdmin(): boolean {
  return useSession((s) => s.user !== null && s.user.company_id === null);
}
