/**
 * The reports module's public face: code outside modules/reports/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { toReportCsv } from './report-csv';
export { reportDocument } from './report-document';
export { toReportPdf } from './report-pdf';
export { toReportXlsx } from './report-xlsx';
export { generateReport, type ReportFileContext } from './report.service';
