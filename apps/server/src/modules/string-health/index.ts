/**
 * The string-health module's public face: code outside modules/string-health/ imports only from here
 * (docs/architecture.md, "Module boundaries"). docs/string-health.md describes the method.
 */
export { STRING_ALARM_PREFIX, STRING_HEALTH_LOOKBACK_MS, StringHealthService } from './string-health.service';
export { startStringHealthJob, type StringHealthJob } from './string-health.job';
