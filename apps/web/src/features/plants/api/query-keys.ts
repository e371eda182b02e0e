import type { PlantListQuery } from '@solar/shared';

/**
 * Query keys of the plant calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const plantKeys = {
  all: ['plants'] as const,
  list: (query: PlantListQuery) => [...plantKeys.all, 'list', query] as const,
  options: (fieldId: number | null, companyId: number | null) =>
    [...plantKeys.all, 'options', fieldId, companyId] as const,
};
