import type { RoleListQuery } from '@solar/shared';

/**
 * Query keys of the role calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const roleKeys = {
  all: ['roles'] as const,
  list: (query: RoleListQuery) => [...roleKeys.all, 'list', query] as const,
  options: () => [...roleKeys.all, 'options'] as const,
};
