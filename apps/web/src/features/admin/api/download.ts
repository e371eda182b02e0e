import { XSRF_HEADER, XSRF_COOKIE } from '@solar/shared';
import { API_BASE } from '../../../lib/api-client';
import { readCookie } from '../../../lib/cookies';
import { ApiError, toProblem } from '../../../lib/problem';
import { getToken } from '../../../lib/session-store';

/**
 * Downloads an attachment the API answers (audit CSV, database backup) and hands it to the browser as a
 * file. Through fetch and not a plain link: the session is a bearer token, which a link cannot carry.
 */
export async function downloadFile(path: string): Promise<void> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(document.cookie, XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  const response = await fetch(`${API_BASE}/${path}`, { headers, credentials: 'include' });
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Not JSON: the status alone says what went wrong.
    }
    throw new ApiError(toProblem(response.status, body));
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
