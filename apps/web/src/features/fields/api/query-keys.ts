import type { FieldListQuery } from '@solar/shared';

/**
 * Query keys of the field calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const fieldKeys = {
  all: ['fields'] as const,
  list: (query: FieldListQuery) => [...fieldKeys.all, 'list', query] as const,
  options: (companyId: number | null) => [...fieldKeys.all, 'options', companyId] as const,
};
