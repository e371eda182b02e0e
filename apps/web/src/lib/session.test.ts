import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_PERMISSIONS } from '@solar/shared';
import { sessionClaims, userIdFromToken } from './jwt';

const b64url = (o: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const jwt = (claims: unknown) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.sig`;
const CLAIMS = { sub: '42', name: 'Ayşe', role_id: 1, permissions: [ALL_PERMISSIONS[0]], iat: 1, exp: 2 };

/** Tokens the console must not treat as a session: malformed, or well-formed without the claims. */
const NOT_SESSIONS = {
  'the issue’s token (claims without sub)': 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.x',
  'not a JWT': 'garbage',
  'a payload that is not base64url JSON': 'a.%%%.c',
  'a payload that is an array': jwt([1, 2]),
  'no sub': jwt({ ...CLAIMS, sub: undefined }),
  'a sub that is no user id': jwt({ ...CLAIMS, sub: 'me' }),
  'a numeric sub (JWT subjects are strings)': jwt({ ...CLAIMS, sub: 42 }),
  'a zero sub': jwt({ ...CLAIMS, sub: '0' }),
  'no permissions': jwt({ ...CLAIMS, permissions: undefined }),
  'permissions of the wrong shape': jwt({ ...CLAIMS, permissions: ['map'] }),
  'no role': jwt({ ...CLAIMS, role_id: undefined }),
  'no name': jwt({ ...CLAIMS, name: undefined }),
};

describe('session claims', () => {
  it('reads the claims the server signs, with the user id', () => {
    expect(sessionClaims(jwt(CLAIMS))).toMatchObject({ sub: '42', userId: 42, role_id: 1, name: 'Ayşe' });
    expect(userIdFromToken(jwt(CLAIMS))).toBe(42);
  });
  it.each(Object.entries(NOT_SESSIONS))('answers null for %s', (_name, token) => {
    expect(sessionClaims(token)).toBeNull();
    expect(userIdFromToken(token)).toBeNull();
  });
});

describe('restoreSession', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /**
   * Runs the restore with `token` saved, the server answering with `answers` in turn (a thrown error is
   * a network failure; the last answer repeats); records calls, navigation, toasts and the pauses.
   */
  async function restoreWith(
    token: string,
    answers: (() => Promise<Response>)[] = [() => Promise.resolve(new Response('{}', { status: 404 }))],
  ) {
    const store = new Map([['token', token]]);
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    const tokenAtCall: boolean[] = [];
    const fetch = vi.fn(() => {
      tokenAtCall.push(store.has('token'));
      return answers[Math.min(tokenAtCall.length - 1, answers.length - 1)]!();
    });
    vi.stubGlobal('fetch', fetch);
    const { setNavigator } = await import('./navigation');
    const { registerNotifier } = await import('./notify');
    const { translate } = await import('./i18n');
    const { useSession } = await import('./session-store');
    const { restoreSession } = await import('./session');
    const navigate = vi.fn();
    setNavigator(navigate);
    const toasts = { success: vi.fn(), error: vi.fn(), info: vi.fn() };
    registerNotifier(toasts);
    const pauses: number[] = [];
    await restoreSession({
      pause: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
    });
    return { store, fetch, navigate, toasts, translate, session: useSession.getState(), pauses, tokenAtCall };
  }

  it.each(Object.entries(NOT_SESSIONS))(
    '%s: clears the token, says the session ended, goes to /login, calls nothing',
    async (_name, token) => {
      const { store, fetch, navigate, toasts, translate, session } = await restoreWith(token);
      expect(store.has('token')).toBe(false);
      expect(session.status).toBe('anonymous');
      expect(session.user).toBeNull();
      expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
      expect(toasts.error).toHaveBeenCalledExactlyOnceWith(translate('errors.unauthorized'));
      expect(translate('errors.unauthorized')).toBe('Oturum süreniz doldu. Lütfen tekrar giriş yapınız.');
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it('sends a token with the claims to the server (which checks signature and expiry)', async () => {
    const { fetch } = await restoreWith(jwt(CLAIMS));
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]).toMatchObject([
      '/api/users/42',
      { headers: { Authorization: `Bearer ${jwt(CLAIMS)}` } },
    ]);
  });

  it('a server that cannot answer keeps the token and is asked again with growing pauses', async () => {
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));
    const failing = () => Promise.resolve(new Response('{}', { status: 503 }));
    const refused = () => Promise.resolve(new Response('{}', { status: 401 }));
    const { store, fetch, toasts, translate, session, pauses, tokenAtCall } = await restoreWith(jwt(CLAIMS), [
      unreachable,
      failing,
      unreachable,
      refused,
    ]);
    expect(fetch).toHaveBeenCalledTimes(4);
    // Every retry still held the token; only the server's 401 ended the session.
    expect(tokenAtCall).toEqual([true, true, true, true]);
    expect(pauses).toEqual([1_000, 2_000, 4_000]);
    expect(toasts.error).toHaveBeenCalledWith(translate('errors.unavailable'));
    expect(store.has('token')).toBe(false);
    expect(session.status).toBe('anonymous');
  });

  it('an answer that is no user (404) logs out at once, without retrying', async () => {
    const { store, fetch, pauses } = await restoreWith(jwt(CLAIMS));
    expect(fetch).toHaveBeenCalledOnce();
    expect(pauses).toEqual([]);
    expect(store.has('token')).toBe(false);
  });

  it('a navigation asked for before the router exists waits for it', async () => {
    const { navigateTo, setNavigator } = await import('./navigation');
    navigateTo('/login');
    const navigate = vi.fn();
    setNavigator(navigate);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });
});

describe('endSession', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** Signs out with `token` saved, the server answering `answer` to the logout call. */
  async function endWith(token: string, answer: () => Promise<Response>) {
    const store = new Map([['token', token]]);
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    const fetch = vi.fn(answer);
    vi.stubGlobal('fetch', fetch);
    const { setNavigator } = await import('./navigation');
    const { registerNotifier } = await import('./notify');
    const navigate = vi.fn();
    setNavigator(navigate);
    const toasts = { success: vi.fn(), error: vi.fn(), info: vi.fn() };
    registerNotifier(toasts);
    const { useSession } = await import('./session-store');
    const { endSession } = await import('./session');
    await endSession();
    return { store, fetch, navigate, toasts, session: useSession.getState() };
  }

  it('ends the sign-in on the server with the token, then clears it, without a toast', async () => {
    const { store, fetch, toasts, session } = await endWith(jwt(CLAIMS), () =>
      Promise.resolve(new Response('{"ok":true}', { status: 200 })),
    );
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]).toMatchObject([
      '/api/users/logout',
      { method: 'POST', headers: { Authorization: `Bearer ${jwt(CLAIMS)}` } },
    ]);
    expect(store.has('token')).toBe(false);
    expect(session.status).toBe('anonymous');
    expect(toasts.success).not.toHaveBeenCalled();
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('a token the server already ended (401) or no server still signs out locally, silently', async () => {
    for (const answer of [
      () => Promise.resolve(new Response('{}', { status: 401 })),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ]) {
      const { store, navigate, toasts, session } = await endWith(jwt(CLAIMS), answer);
      expect(store.has('token')).toBe(false);
      expect(session.status).toBe('anonymous');
      expect(toasts.error).not.toHaveBeenCalled();
      expect(navigate).not.toHaveBeenCalled();
      vi.resetModules();
    }
  });
});
