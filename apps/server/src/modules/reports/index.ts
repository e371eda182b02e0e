/**
 * The reports module's public face: code outside modules/reports/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { generateReport, type ReportFileContext } from './report.service';
