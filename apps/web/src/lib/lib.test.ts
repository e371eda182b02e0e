import { describe, expect, it, vi } from 'vitest';
import {
  ALL_PERMISSIONS,
  LOGIN_BACKGROUND_INDEX_MAX,
  LOGIN_SLIDES,
  loginBody,
  passwordField,
} from '@solar/shared';
import { readCookie } from './cookies';
import { decodeJwtPayload } from './jwt';
import { nextBackgroundIndex, nextSlide } from './login-background';
import { fieldErrorsOf, messageKeyOf, toNamePath, toProblem } from './problem';
import { firstPermittedPath, menuRoutes, menuTestId } from './routes';
import { isLoginCall, isLogoutCall, normalizeApiPath, showsGenericToast } from './toast-policy';
import { sameAsRule, zodRule } from './form-rules';
import { createQueryClient } from './query-client';

const b64url = (o: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const t = (key: string) => `T(${key})`;

describe('jwt', () => {
  it('reads the payload', () => {
    const token = `${b64url({ alg: 'HS256' })}.${b64url({ sub: '42', name: 'Ayşe' })}.sig`;
    expect(decodeJwtPayload(token)).toEqual({ sub: '42', name: 'Ayşe' });
  });
  it('answers null for malformed tokens', () => {
    expect(decodeJwtPayload('abc')).toBeNull();
    expect(decodeJwtPayload('a.%%%.c')).toBeNull();
  });
});

describe('readCookie', () => {
  it('finds and decodes the XSRF cookie among others', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc%2Fdef; b=2', 'XSRF-TOKEN')).toBe('abc/def');
    expect(readCookie('a=1', 'XSRF-TOKEN')).toBeNull();
    expect(readCookie('', 'XSRF-TOKEN')).toBeNull();
  });
});

describe('toast policy (spec §7-§8)', () => {
  it('toasts every POST except login and the three reset calls, in any case', () => {
    expect(showsGenericToast('POST', 'Users/profile/3')).toBe(true);
    expect(showsGenericToast('post', '/users/5')).toBe(true);
    expect(showsGenericToast('POST', 'users/login')).toBe(false);
    expect(showsGenericToast('POST', 'Users/resetpasswordrequest')).toBe(false);
    expect(showsGenericToast('POST', 'Users/checkresetpasswordrequest')).toBe(false);
    expect(showsGenericToast('POST', 'Users/ResetPassword')).toBe(false);
    // Sign-out and the email confirmation say what happened on their own screens.
    expect(showsGenericToast('POST', 'users/logout')).toBe(false);
    expect(showsGenericToast('POST', 'users/confirm-email')).toBe(false);
    expect(showsGenericToast('GET', 'users/3')).toBe(false);
    expect(showsGenericToast('DELETE', 'alarms/custom/3')).toBe(false);
  });
  it('recognises the login call only', () => {
    expect(isLoginCall('/api/Users/Login')).toBe(true);
    expect(isLoginCall('users/3')).toBe(false);
    expect(isLogoutCall('/api/Users/Logout')).toBe(true);
    expect(isLogoutCall('users/login')).toBe(false);
    expect(normalizeApiPath('/api/Users/1?x=2')).toBe('users/1');
  });
});

describe('problems', () => {
  it('keeps a problem body and prefers an error key in detail', () => {
    const p = toProblem(401, { status: 401, title: 'Unauthorized', detail: 'errors.invalidCredentials' });
    expect(messageKeyOf(p)).toBe('errors.invalidCredentials');
  });
  it('falls back to a key by status for other bodies', () => {
    expect(messageKeyOf(toProblem(429, 'Too Many'))).toBe('errors.tooManyRequests');
    expect(messageKeyOf(toProblem(502, undefined))).toBe('errors.unavailable');
    expect(messageKeyOf(toProblem(500, { title: 'boom' }))).toBe('errors.internal');
  });
  it('maps field errors to translated antd fields', () => {
    const p = toProblem(400, {
      status: 400,
      title: 'errors.badRequest',
      errors: { email: ['validation.invalidEmail'], 'user_units.0.unit_id': ['validation.invalidNumber'] },
    });
    expect(fieldErrorsOf(p, t)).toEqual([
      { name: ['email'], errors: ['T(validation.invalidEmail)'] },
      { name: ['user_units', 0, 'unit_id'], errors: ['T(validation.invalidNumber)'] },
    ]);
    expect(toNamePath('a[1].b')).toEqual(['a', 1, 'b']);
  });
});

describe('routes', () => {
  it('lists permitted menu pages and lands on the first', () => {
    const user = {
      id: 7,
      permissions: [
        { page: 'alarm', method: 'view' },
        { page: 'map', method: 'update' },
      ],
    } as const;
    expect(menuRoutes(user.permissions).map((r) => r.path)).toEqual(['/alarms']);
    expect(firstPermittedPath(user)).toBe('/alarms');
    expect(firstPermittedPath({ id: 7, permissions: [] })).toBe('/profile/7');
    expect(firstPermittedPath({ id: 1, permissions: ALL_PERMISSIONS })).toBe('/map');
    expect(menuRoutes(ALL_PERMISSIONS).every((r) => r.inMenu)).toBe(true);
  });
  it('names menu test ids after the path', () => {
    expect(menuTestId('/user-management')).toBe('menu-user-management');
  });
});

describe('login background', () => {
  it('cycles the stored index 1..9', () => {
    expect(nextBackgroundIndex(null)).toBe(1);
    expect(nextBackgroundIndex('garbage')).toBe(1);
    expect(nextBackgroundIndex('1')).toBe(2);
    expect(nextBackgroundIndex(String(LOGIN_BACKGROUND_INDEX_MAX))).toBe(1);
    expect(nextBackgroundIndex('17')).toBe(1);
  });
  it('rotates through the 17 slides', () => {
    expect(nextSlide(0)).toBe(1);
    expect(nextSlide(LOGIN_SLIDES - 1)).toBe(0);
  });
});

describe('form rules from zod schemas', () => {
  it('passes valid values and translates the first issue', async () => {
    const rule = zodRule(loginBody.shape.email, t);
    await expect(rule.validator({}, 'a@b.co')).resolves.toBeUndefined();
    await expect(rule.validator({}, '')).rejects.toThrow('T(validation.required)');
    await expect(rule.validator({}, undefined)).rejects.toThrow('T(validation.required)');
    await expect(rule.validator({}, 'nope')).rejects.toThrow('T(validation.invalidEmail)');
  });
  it('loads a lazy schema', async () => {
    const rule = zodRule(() => Promise.resolve(passwordField()), t);
    await expect(rule.validator({}, 'short1')).rejects.toThrow('T(validation.weakPassword)');
    await expect(rule.validator({}, 'longer-pass1')).resolves.toBeUndefined();
  });
  it('checks that the repeat matches', async () => {
    const rule = sameAsRule(() => 'Secret123', t);
    await expect(rule.validator({}, 'Secret123')).resolves.toBeUndefined();
    await expect(rule.validator({}, 'Other123')).rejects.toThrow('T(validation.passwordsDoNotMatch)');
  });
});

describe('query client (spec §9)', () => {
  it('does not retry, refetch on focus or cache', () => {
    const q = createQueryClient().getDefaultOptions().queries;
    expect(q).toMatchObject({ retry: false, refetchOnWindowFocus: false, staleTime: 0, gcTime: 0 });
  });
});

/** A browser with a stored token `tok` and an XSRF-TOKEN cookie `xs`; answers the token store. */
function stubSignedInBrowser(): Map<string, string> {
  const store = new Map<string, string>([['token', 'tok']]);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('document', { cookie: 'XSRF-TOKEN=xs' });
  return store;
}

describe('api client', () => {
  it('sends bearer and XSRF headers, and logs out on a 401 outside login', async () => {
    const store = stubSignedInBrowser();
    const calls: [string, RequestInit][] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push([url, init]);
      const status = url.endsWith('/login') ? 401 : url.endsWith('/users/1') ? 401 : 200;
      return Promise.resolve(
        new Response(
          JSON.stringify(
            status === 200 ? { ok: true } : { status, title: 'x', detail: 'errors.unauthorized' },
          ),
          {
            status,
            headers: { 'content-type': 'application/json' },
          },
        ),
      );
    });
    const { apiRequest } = await import('./api-client');
    const { setNavigator } = await import('./navigation');
    const navigate = vi.fn();
    setNavigator(navigate);

    await expect(apiRequest('GET', 'plants')).resolves.toEqual({ ok: true });
    const headers = calls[0]![1].headers as Record<string, string>;
    expect(calls[0]![0]).toBe('/api/plants');
    expect(calls[0]![1].credentials).toBe('include');
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['X-XSRF-TOKEN']).toBe('xs');

    await expect(apiRequest('POST', 'users/login', { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(store.get('token')).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();

    await expect(apiRequest('GET', 'users/1')).rejects.toMatchObject({ status: 401 });
    expect(store.has('token')).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login');
    vi.unstubAllGlobals();
  });

  it('fetches binaries with the same headers, turns a problem into an ApiError and ends the session on 401', async () => {
    const store = stubSignedInBrowser();
    const calls: [string, RequestInit][] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push([url, init]);
      if (url.endsWith('/cameras/1/snapshot'))
        return Promise.resolve(new Response(new Uint8Array([1, 2, 3])));
      const status = url.endsWith('/cameras/2/snapshot') ? 502 : 401;
      return Promise.resolve(
        new Response(JSON.stringify({ status, title: 'x', detail: 'errors.cameraUnreachable' }), {
          status,
          headers: { 'content-type': 'application/problem+json' },
        }),
      );
    });
    const { fetchBinary } = await import('./api-client');
    const { setNavigator } = await import('./navigation');
    const navigate = vi.fn();
    setNavigator(navigate);

    const ok = await fetchBinary('cameras/1/snapshot', { accept: 'image/png', noStore: true });
    expect([...new Uint8Array(await ok.arrayBuffer())]).toEqual([1, 2, 3]);
    const headers = calls[0]![1].headers as Record<string, string>;
    expect(calls[0]![0]).toBe('/api/cameras/1/snapshot');
    expect(calls[0]![1].cache).toBe('no-store');
    expect(headers).toMatchObject({ Authorization: 'Bearer tok', 'X-XSRF-TOKEN': 'xs', Accept: 'image/png' });

    await expect(fetchBinary('cameras/2/snapshot')).rejects.toMatchObject({
      status: 502,
      problem: { detail: 'errors.cameraUnreachable' },
    });
    expect(store.get('token')).toBe('tok');

    await expect(fetchBinary('reports/1/download')).rejects.toMatchObject({ status: 401 });
    expect(store.has('token')).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login');
    vi.unstubAllGlobals();
  });
});
