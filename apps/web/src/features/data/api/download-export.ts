import type { CsvDelimiter } from '@solar/shared';
import { downloadFile } from '../../../lib/download';
import { telemetryParams, type TelemetryRequest } from './get-telemetry';

export type ExportFormat = 'csv' | 'xlsx';

/** GET telemetry/export?format=&delimiter=, downloaded as `fileName`. Rejects with an ApiError. */
export function downloadExport(
  r: TelemetryRequest,
  format: ExportFormat,
  fileName: string,
  delimiter: CsvDelimiter = 'comma',
): Promise<void> {
  const params = telemetryParams(r);
  params.set('format', format);
  if (format === 'csv') params.set('delimiter', delimiter);
  return downloadFile(`telemetry/export?${params.toString()}`, () => `${fileName}.${format}`);
}
