/**
 * Query keys of the custom alarm rule calls. Every key starts with `all`, so invalidating `all`
 * refreshes them all; other features use this factory, never a literal key.
 */
export const customAlarmKeys = {
  all: ['custom-alarms'] as const,
  list: () => [...customAlarmKeys.all, 'list'] as const,
};
