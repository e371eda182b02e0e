import { XSRF_COOKIE, XSRF_HEADER, type CsvDelimiter, type ReportFormat } from '@solar/shared';
import { API_BASE } from '../../../lib/api-client';
import { readCookie } from '../../../lib/cookies';
import { ApiError, toProblem } from '../../../lib/problem';
import { getToken } from '../../../lib/session-store';
import { reportParams, type ReportRequest } from './report-request';

/** The file name the server gives in Content-Disposition, else `fallback`. */
function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * GET reports/{type}?format=: fetched with the session's bearer token (a plain link could not carry it)
 * and handed to the browser as a download under the server's file name. Rejects with an ApiError.
 */
export async function downloadReport(
  r: ReportRequest,
  format: ReportFormat,
  delimiter?: CsvDelimiter,
): Promise<void> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(document.cookie, XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/reports/${r.type}?${reportParams(r, format, delimiter).toString()}`, {
      headers,
      credentials: 'include',
    });
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
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, `${r.type}-${r.from}_${r.to}.${format}`);
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
