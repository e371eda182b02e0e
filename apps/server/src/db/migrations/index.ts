import { foundation } from './2026-11-23-0001-foundation';
import { organisation } from './2026-11-23-0002-organisation';
import { searchFold } from './2026-11-23-0003-search-fold';
import { telemetry } from './2026-11-23-0004-telemetry';
import { collectors } from './2026-11-23-0005-collectors';
import { alarms } from './2026-11-23-0006-alarms';
import { faults } from './2026-11-23-0007-faults';
import { kpi } from './2026-11-23-0008-kpi';
import { singleLine } from './2026-11-23-0009-single-line';
import { signalBounds } from './2026-11-23-0011-signal-bounds';
import { deviceLastData } from './2026-11-24-0012-device-last-data';
import { sessionHardening } from './2026-11-25-0013-session-hardening';
import { rawPartitions } from './2026-11-25-0016-raw-partitions';
import { plantBudgets } from './2026-11-25-0017-plant-budgets';
import { reportSchedules } from './2026-11-25-0019-report-schedules';
import { systemSettings } from './2026-11-25-0020-system-settings';
import { clusterLeases } from './2026-11-25-0021-cluster-leases';
import { userSessions } from './2026-11-25-0022-user-sessions';
import { siteLogoCo2Factors } from './2026-11-25-0024-site-logo-co2-factors';
import { sessionLifetimeEmailConfirmation } from './2026-11-28-0025-session-lifetime-email-confirmation';
import { mailLimits } from './2026-11-28-0026-mail-limits';
import { faultTitleCodes } from './2026-11-28-0028-fault-title-codes';
import { cameraProbes } from './2026-11-29-0029-camera-probes';
import { alarmCauses } from './2026-11-29-0030-alarm-causes';
import { dataQualityFlags } from './2026-11-29-0101-data-quality-flags';
import { excludedEnergy } from './2026-11-29-0102-excluded-energy';
import { plantModelParameters } from './2026-11-29-0104-plant-model-parameters';
import { historyImports } from './2026-11-29-0105-history-imports';
import { kpiReplayedDay } from './2026-11-29-0111-kpi-replayed-day';
import { historyImportHeartbeat } from './2026-11-29-0112-history-import-heartbeat';
import { deviceSerialPath } from './2026-11-29-0118-device-serial-path';
import { edgeAgents } from './2026-11-29-0120-edge-agents';
import { registerTemplates } from './2026-11-29-0124-register-templates';
import { signalValueMap } from './2026-11-29-0126-signal-value-map';
import { kpiDayVersions } from './2026-11-30-0138-kpi-day-versions';
import type { DialectMigration } from './helpers';

/** Append-only: a new migration gets a later timestamped name; an applied one is never edited. */
export const migrations: Record<string, DialectMigration> = {
  '2026-11-23-0001-foundation': foundation,
  '2026-11-23-0002-organisation': organisation,
  '2026-11-23-0003-search-fold': searchFold,
  '2026-11-23-0004-telemetry': telemetry,
  '2026-11-23-0005-collectors': collectors,
  '2026-11-23-0006-alarms': alarms,
  '2026-11-23-0007-faults': faults,
  '2026-11-23-0008-kpi': kpi,
  '2026-11-23-0009-single-line': singleLine,
  '2026-11-23-0011-signal-bounds': signalBounds,
  '2026-11-24-0012-device-last-data': deviceLastData,
  '2026-11-25-0013-session-hardening': sessionHardening,
  '2026-11-25-0016-raw-partitions': rawPartitions,
  '2026-11-25-0017-plant-budgets': plantBudgets,
  '2026-11-25-0019-report-schedules': reportSchedules,
  '2026-11-25-0020-system-settings': systemSettings,
  '2026-11-25-0021-cluster-leases': clusterLeases,
  '2026-11-25-0022-user-sessions': userSessions,
  '2026-11-25-0024-site-logo-co2-factors': siteLogoCo2Factors,
  '2026-11-28-0025-session-lifetime-email-confirmation': sessionLifetimeEmailConfirmation,
  '2026-11-28-0026-mail-limits': mailLimits,
  '2026-11-28-0028-fault-title-codes': faultTitleCodes,
  '2026-11-29-0029-camera-probes': cameraProbes,
  '2026-11-29-0030-alarm-causes': alarmCauses,
  '2026-11-29-0101-data-quality-flags': dataQualityFlags,
  '2026-11-29-0102-excluded-energy': excludedEnergy,
  '2026-11-29-0104-plant-model-parameters': plantModelParameters,
  '2026-11-29-0105-history-imports': historyImports,
  '2026-11-29-0111-kpi-replayed-day': kpiReplayedDay,
  '2026-11-29-0112-history-import-heartbeat': historyImportHeartbeat,
  '2026-11-29-0118-device-serial-path': deviceSerialPath,
  '2026-11-29-0120-edge-agents': edgeAgents,
  '2026-11-29-0124-register-templates': registerTemplates,
  '2026-11-29-0126-signal-value-map': signalValueMap,
  '2026-11-30-0138-kpi-day-versions': kpiDayVersions,
};
