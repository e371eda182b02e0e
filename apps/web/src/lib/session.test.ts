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

  /** Runs the restore with `token` saved; records calls, navigation and toasts. */
  async function restoreWith(token: string) {
    const store = new Map([['token', token]]);
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    const fetch = vi.fn(() => Promise.resolve(new Response('{}', { status: 500 })));
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
    await restoreSession();
    return { store, fetch, navigate, toasts, translate, session: useSession.getState() };
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

  it('a navigation asked for before the router exists waits for it', async () => {
    const { navigateTo, setNavigator } = await import('./navigation');
    navigateTo('/login');
    const navigate = vi.fn();
    setNavigator(navigate);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });
});
