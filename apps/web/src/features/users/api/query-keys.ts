/**
 * Query keys of the user calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
  assignees: () => [...userKeys.all, 'assignees'] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
};
