/** Calls whose answers the screens handle themselves: no generic toast (spec §7-§8). */
const SILENT_POSTS = [
  'users/login',
  'users/resetpasswordrequest',
  'users/checkresetpasswordrequest',
  'users/resetpassword',
  'users/logout',
  'users/confirm-email',
];

/** A path relative to /api, lower-cased, without query or surrounding slashes (`Users` = `users`). */
export function normalizeApiPath(path: string): string {
  return path
    .split('?')[0]!
    .replace(/^\/+|\/+$/g, '')
    .replace(/^api\//i, '')
    .toLowerCase();
}

/** True for the login call, where a 401 means wrong credentials rather than an expired session. */
export function isLoginCall(path: string): boolean {
  return normalizeApiPath(path) === 'users/login';
}

/** True for the sign-out, whose 401 (a token already ended) is no expired session to announce. */
export function isLogoutCall(path: string): boolean {
  return normalizeApiPath(path) === 'users/logout';
}

/** True when a call shows the generic 'İşlem Başarılı' / 'İşlem Başarısız' toast: every POST but the silent ones. */
export function showsGenericToast(method: string, path: string): boolean {
  return method.toUpperCase() === 'POST' && !SILENT_POSTS.includes(normalizeApiPath(path));
}
