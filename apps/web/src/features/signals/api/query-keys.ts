import type { SignalListQuery } from '@solar/shared';

/**
 * Query keys of the signal calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const signalKeys = {
  all: ['signals'] as const,
  list: (query: SignalListQuery) => [...signalKeys.all, 'list', query] as const,
};
