import { E, userWithTokenSchema, type UserWithToken } from '@solar/shared';
import { api, sessionExpired } from './api-client';
import { translate } from './i18n';
import { notify } from './notify';
import { ApiError } from './problem';
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

/** Waits between tries of a restore the server could not answer: 1 s, 2 s, 4 s … at most 15 s. */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * True for a failure that says nothing about the token: the server was not reached (offline, restarting,
 * the page being left mid-request) or failed itself (5xx). Logging out then would throw a good session away:
 * a reload during a restore, or a server restart, would sign the operator out.
 */
const notAboutTheToken = (error: unknown) =>
  (error instanceof ApiError && (error.status === 0 || error.status >= 500)) ||
  (error instanceof DOMException && error.name === 'AbortError');

/**
 * On app load: with a saved token, restores the session. The server's "no" (401, or an answer that is no
 * user) logs out; a server that cannot answer is asked again with growing pauses while the spinner shows,
 * the token kept. A token that is malformed or lacks the claims is treated like an expired one (message,
 * /login) and never sent.
 */
export async function restoreSession({
  pause = sleep,
}: { pause?: (ms: number) => Promise<void> } = {}): Promise<void> {
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
  for (let attempt = 0; ; attempt++) {
    try {
      await startSession(token);
      return;
    } catch (error) {
      if (!notAboutTheToken(error)) {
        useSession.getState().logout();
        return;
      }
      if (attempt === 0) notify.error(translate(E.unavailable));
      await pause(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!);
      // Signed out or in meanwhile (another tab, the login page): nothing left to restore.
      if (getToken() !== token) return;
    }
  }
}

/** Refreshes the logged-in user (after a profile save): new user data and new token. */
export async function refreshSession(): Promise<void> {
  const user = useSession.getState().user;
  if (user) await loadUser(user.id);
}

/**
 * Signs out: ends the sign-in on the server first, so that the token stops working everywhere (a copy in
 * another tab or in a thief's hands), then clears the local session. Offline, the local session is cleared
 * anyway; the token then ends at its expiry.
 */
export async function endSession(): Promise<void> {
  const token = getToken();
  try {
    if (token) await api.post<unknown>('users/logout', {}, { token });
  } catch {
    // Already ended (401) or unreachable: nothing more the console can do about the server side.
  } finally {
    useSession.getState().logout();
  }
}
