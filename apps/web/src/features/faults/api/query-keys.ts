import type { FaultListQuery } from '@solar/shared';

/**
 * Query keys of the fault calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features (an approved alarm becomes a fault) invalidate through this factory, never a literal key.
 */
export const faultKeys = {
  all: ['faults'] as const,
  list: (query: FaultListQuery) => [...faultKeys.all, 'list', query] as const,
  detail: (id: number) => [...faultKeys.all, 'detail', id] as const,
};
