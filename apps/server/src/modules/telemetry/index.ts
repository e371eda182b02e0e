/**
 * The telemetry module's public face: code outside modules/telemetry/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { IngestKeysService } from './ingest-keys.service';
export type { ExportSeriesPart } from './telemetry.export';
export { TELEMETRY_MAX_ANSWER_POINTS, TelemetryService } from './telemetry.service';
