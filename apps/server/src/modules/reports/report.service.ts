import type { ReportAnswer, ReportFormat, ReportQueryParsed, ReportType } from '@solar/shared';
import type { Actor } from '../../lib/actor';
import { defaultCsvDelimiter } from '@solar/shared';
import { buildReport, type ReportContext } from './report-data';
import { toReportCsv } from './report-csv';
import { reportDocument } from './report-document';
import { toReportPdf } from './report-pdf';
import { toReportXlsx } from './report-xlsx';

export type { ReportContext } from './report-data';

/** A generated report file (or the JSON answer as text). */
export interface ReportFile {
  filename: string;
  contentType: string;
  body: Buffer | string;
}

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** `production-2026-10-01_2026-10-31.xlsx`: type and period, ASCII only. */
export const reportFilename = (type: ReportType, query: ReportQueryParsed) =>
  `${type}-${query.from}_${query.to}.${query.format}`;

/**
 * One report in the asked format, scoped to the actor (GET reports/{type}; scheduled reports call it
 * too). Throws the same 400/404 HttpErrors as the route answers.
 */
export async function generateReport(
  ctx: ReportContext,
  actor: Actor,
  type: ReportType,
  query: ReportQueryParsed,
): Promise<ReportFile> {
  const report = await buildReport(ctx, actor, type, query);
  return {
    filename: reportFilename(type, query),
    contentType: REPORT_CONTENT_TYPES[query.format],
    body: await renderReport(report, query),
  };
}

/** The report in the query's format. */
export async function renderReport(report: ReportAnswer, query: ReportQueryParsed): Promise<Buffer | string> {
  if (query.format === 'json') return JSON.stringify(report);
  const doc = reportDocument(report);
  if (query.format === 'csv') return toReportCsv(doc, query.delimiter ?? defaultCsvDelimiter(query.lang));
  if (query.format === 'xlsx') return toReportXlsx(doc);
  return toReportPdf(doc);
}
