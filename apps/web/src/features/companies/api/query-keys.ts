import type { CompanyListQuery } from '@solar/shared';

/**
 * Query keys of the company calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const companyKeys = {
  all: ['companies'] as const,
  list: (query: CompanyListQuery) => [...companyKeys.all, 'list', query] as const,
  options: () => [...companyKeys.all, 'options'] as const,
};
