import type { CsvDelimiter, ReportFormat } from '@solar/shared';
import { downloadFile } from '../../../lib/download';
import { reportParams, type ReportRequest } from './report-request';

/** The file name the server gives in Content-Disposition, else `fallback`. */
function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/** GET reports/{type}?format=, downloaded under the server's file name. Rejects with an ApiError. */
export function downloadReport(
  r: ReportRequest,
  format: ReportFormat,
  delimiter?: CsvDelimiter,
): Promise<void> {
  return downloadFile(`reports/${r.type}?${reportParams(r, format, delimiter).toString()}`, (response) =>
    fileNameOf(response, `${r.type}-${r.from}_${r.to}.${format}`),
  );
}
