import { XSRF_COOKIE, XSRF_HEADER, type CsvDelimiter } from '@solar/shared';
import { API_BASE } from '../../../lib/api-client';
import { readCookie } from '../../../lib/cookies';
import { ApiError, toProblem } from '../../../lib/problem';
import { getToken } from '../../../lib/session-store';
import { telemetryParams, type TelemetryRequest } from './get-telemetry';

export type ExportFormat = 'csv' | 'xlsx';

/**
 * GET telemetry/export?format=&delimiter=: fetched with the session's bearer token (a plain link could not carry
 * it) and handed to the browser as a download named `fileName`. Rejects with an ApiError.
 */
export async function downloadExport(
  r: TelemetryRequest,
  format: ExportFormat,
  fileName: string,
  delimiter: CsvDelimiter = 'comma',
): Promise<void> {
  const params = telemetryParams(r);
  params.set('format', format);
  if (format === 'csv') params.set('delimiter', delimiter);
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = readCookie(document.cookie, XSRF_COOKIE);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/telemetry/export?${params.toString()}`, {
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
  link.download = `${fileName}.${format}`;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
