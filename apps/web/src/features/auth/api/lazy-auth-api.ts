/**
 * The auth calls and schemas, loaded on first use: they bring zod and the session loader, which the
 * login page does not need to show itself (keeps /login small).
 */
export const loadAuthApi = () => import('./auth-api');

export const lazySchema = (name: 'email' | 'loginPassword' | 'newPassword') => async () =>
  (await loadAuthApi()).authSchemas[name];
