/**
 * Query keys of the report calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features use this factory, never a literal key.
 */
export const reportKeys = {
  all: ['reports'] as const,
  preview: (request: object) => [...reportKeys.all, 'preview', request] as const,
  schedules: () => [...reportKeys.all, 'schedules'] as const,
};
