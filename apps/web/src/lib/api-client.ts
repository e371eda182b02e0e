import { E, XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { readCookie } from './cookies';
import { translate } from './i18n';
import { navigateTo } from './navigation';
import { notify } from './notify';
import { ApiError, toProblem } from './problem';
import { getToken, useSession } from './session-store';
import { isLoginCall, isLogoutCall, showsGenericToast } from './toast-policy';

/** Base path of every call (spec §7). */
export const API_BASE = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the bearer token (used right after login, before the session is stored). */
  token?: string | null;
}

function xsrfToken(): string | null {
  return typeof document === 'undefined' ? null : readCookie(document.cookie, XSRF_COOKIE);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Ends an expired session (spec §4: after a 401, or a saved token that is no session): logs out and,
 * once even when several calls fail together, shows the session message and goes to /login.
 */
export function sessionExpired(): void {
  const session = useSession.getState();
  const hadSession = session.status !== 'anonymous' || getToken() !== null;
  session.logout();
  if (!hadSession) return;
  notify.error(translate(E.unauthorized));
  navigateTo('/login');
}

/**
 * Calls the API: JSON in and out, cookies included, the bearer token and the anti-forgery header on
 * every request, no timeout (spec §9). Resolves with the answer; rejects with an ApiError carrying the
 * server's problem. POSTs show the generic success/failure toast except the login and reset calls.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = options.token === undefined ? getToken() : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = xsrfToken();
  if (xsrf) headers[XSRF_HEADER] = xsrf;

  const toast = showsGenericToast(method, path);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\/+/, '')}`, {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    if (toast) notify.error(translate('common.failure'));
    throw new ApiError({ status: 0, title: E.unavailable, detail: E.unavailable });
  }

  const body = await readBody(response);
  if (!response.ok) {
    const error = new ApiError(toProblem(response.status, body));
    if (response.status === 401 && !isLoginCall(path) && !isLogoutCall(path)) sessionExpired();
    else if (toast) notify.error(translate('common.failure'));
    throw error;
  }
  if (toast) notify.success(translate('common.success'));
  return body as T;
}

/**
 * GETs a binary answer (a file to download, a camera image) with the same bearer token and anti-forgery
 * header as every call, which a plain link or <img src> could not carry. Resolves with the response when
 * it is ok; rejects with an ApiError carrying the server's problem (a 401 also ends the session), and lets
 * an abort through as it is.
 */
export async function fetchBinary(
  path: string,
  options: { accept?: string; signal?: AbortSignal; noStore?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.accept) headers.Accept = options.accept;
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = xsrfToken();
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\/+/, '')}`, {
      headers,
      credentials: 'include',
      signal: options.signal ?? null,
      ...(options.noStore ? { cache: 'no-store' as const } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(toProblem(0, undefined));
  }
  if (!response.ok) {
    const error = new ApiError(toProblem(response.status, await readBody(response)));
    if (response.status === 401) sessionExpired();
    throw error;
  }
  return response;
}

/** Shorthands for the four methods the console uses. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>('PUT', path, { body: body ?? {} }),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};
