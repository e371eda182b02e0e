/**
 * The report-schedules module's public face: code outside modules/report-schedules/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export {
  createReportScheduleRunner,
  type ReportScheduleRunner,
  type ReportScheduleRunnerOptions,
} from './jobs/report-schedule-runner';
export { renderScheduledReport } from './report-files';
