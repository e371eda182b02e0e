/**
 * Query keys of the logged-out calls. Kept apart from auth-api.ts so that reading a key does not load
 * zod and the session code with it (see lazy-auth-api.ts).
 */
export const authKeys = {
  all: ['auth'] as const,
  resetCheck: (guid: string) => [...authKeys.all, 'reset-check', guid] as const,
};
