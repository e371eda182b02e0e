import type { CsvDelimiter, Locale, ReportFormat, ReportType } from '@solar/shared';

/** What the page asks GET reports/{type} for. */
export interface ReportRequest {
  type: ReportType;
  plantIds: number[];
  /** Local dates YYYY-MM-DD, both included. */
  from: string;
  to: string;
  lang: Locale;
}

/** The query string of GET reports/{type} for a format (and, for CSV, a delimiter). */
export function reportParams(
  r: ReportRequest,
  format: ReportFormat,
  delimiter?: CsvDelimiter,
): URLSearchParams {
  const params = new URLSearchParams({ from: r.from, to: r.to, lang: r.lang, format });
  if (r.plantIds.length) params.set('plant_ids', r.plantIds.join(','));
  if (format === 'csv' && delimiter) params.set('delimiter', delimiter);
  return params;
}
