import { XSRF_COOKIE, XSRF_HEADER } from '@solar/shared';
import { API_BASE } from './api-client';
import { readCookie } from './cookies';
import { ApiError, toProblem } from './problem';
import { getToken } from './session-store';

/**
 * GET `path` (under the API base) with the session's bearer token and anti-forgery header (a plain link could
 * carry neither) and hands the body to the browser as a download named by `fileName`. Rejects with an ApiError.
 */
export async function downloadFile(path: string, fileName: (response: Response) => string): Promise<void> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(document.cookie, XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path}`, { headers, credentials: 'include' });
  } catch {
    throw new ApiError(toProblem(0, undefined));
  }
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw new ApiError(toProblem(response.status, body));
  }
  saveBlob(await response.blob(), fileName(response));
}

/** Hands a blob made in the browser (a template file) to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
