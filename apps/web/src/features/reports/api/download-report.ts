import type { CsvDelimiter, ReportFormat } from '@solar/shared';
import { downloadFile, serverFileName } from '../../../lib/download';
import { reportParams, type ReportRequest } from './report-request';

/** GET reports/{type}?format=, downloaded under the server's file name. Rejects with an ApiError. */
export function downloadReport(
  r: ReportRequest,
  format: ReportFormat,
  delimiter?: CsvDelimiter,
): Promise<void> {
  return downloadFile(`reports/${r.type}?${reportParams(r, format, delimiter).toString()}`, (response) =>
    serverFileName(response, `${r.type}-${r.from}_${r.to}.${format}`),
  );
}
