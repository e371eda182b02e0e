import { userWithTokenSchema, type UserWithToken } from '@solar/shared';
import { api, sessionExpired } from './api-client';
import { userIdFromToken } from './jwt';
import { getToken, useSession } from './session-store';

/** GET users/{id} with the given token; stores the user and the fresh token it answers. */
export async function loadUser(id: number, token?: string): Promise<UserWithToken> {
  const answer = userWithTokenSchema.parse(
    await api.get<unknown>(`users/${id}`, { token: token ?? getToken() }),
  );
  useSession.getState().setUser(answer);
  return answer;
}

/** Starts a session from a login token: reads the user id from its `sub` claim and loads the user. */
export async function startSession(token: string): Promise<UserWithToken> {
  const id = userIdFromToken(token);
  if (id === null) throw new Error('token without a user id');
  return loadUser(id, token);
}

/**
 * On app load: with a saved token, restores the session; a failed restore logs out. A token that is
 * malformed or lacks the claims is treated like an expired one (message, /login) and never sent.
 */
export async function restoreSession(): Promise<void> {
  const token = getToken();
  const session = useSession.getState();
  if (!token) {
    session.setStatus('anonymous');
    return;
  }
  if (userIdFromToken(token) === null) {
    sessionExpired();
    return;
  }
  session.setStatus('restoring');
  try {
    await startSession(token);
  } catch {
    useSession.getState().logout();
  }
}

/** Refreshes the logged-in user (after a profile save): new user data and new token. */
export async function refreshSession(): Promise<void> {
  const user = useSession.getState().user;
  if (user) await loadUser(user.id);
}
