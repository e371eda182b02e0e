import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { healthRoutes } from './health/health.routes';
import { collectorsHealthRoutes } from './health/collectors-health.routes';
import { authRoutes } from './auth/auth.routes';
import { usersRoutes } from './users/users.routes';
import { alarmsRoutes } from './alarms/alarms.routes';
import { auditRoutes } from './audit/audit.routes';
import { camerasRoutes } from './cameras/cameras.routes';
import { companiesRoutes } from './companies/companies.routes';
import { devicesRoutes } from './devices/devices.routes';
import { faultsRoutes } from './faults/faults.routes';
import { fieldsRoutes } from './fields/fields.routes';
import { kpiRoutes } from './kpi/kpi.routes';
import { mapRoutes } from './map/map.routes';
import { plantsRoutes } from './plants/plants.routes';
import { rolesRoutes } from './roles/roles.routes';
import { signalsRoutes } from './signals/signals.routes';
import { registerTemplatesRoutes } from './register-templates/register-templates.routes';
import { sunspecRoutes } from './sunspec/sunspec.routes';
import { telemetryRoutes } from './telemetry/telemetry.routes';
import { topologyRoutes } from './topology/topology.routes';
import { streamRoutes } from './stream/stream.routes';
import { settingsRoutes } from './settings/settings.routes';
import { co2FactorsRoutes } from './kpi/co2-factors.routes';
import { fleetKeysRoutes } from './telemetry/fleet-keys.routes';
import { backupRoutes } from './backup/backup.routes';
import { adminSessionsRoutes } from './admin/sessions.routes';
import { reportsRoutes } from './reports/reports.routes';
import { budgetsRoutes } from './budgets/budgets.routes';
import { reportSchedulesRoutes } from './report-schedules/report-schedules.routes';
import { performanceRoutes } from './performance/performance.routes';
import { dataQualityRoutes } from './data-quality/data-quality.routes';
import { stringHealthRoutes } from './string-health/string-health.routes';
import { historyImportRoutes } from './history-import/history-import.routes';
import { edgeRoutes } from './edge/edge.routes';

/**
 * Feature modules, registered under /api in this order. A new feature adds its routes here: this registry is
 * the one place that imports a module's routes file rather than its index.ts (docs/architecture.md,
 * "Module boundaries").
 */
export const apiModules: FastifyPluginAsyncZod<{ ctx: AppContext }>[] = [
  healthRoutes,
  collectorsHealthRoutes,
  authRoutes,
  usersRoutes,
  rolesRoutes,
  companiesRoutes,
  fieldsRoutes,
  plantsRoutes,
  devicesRoutes,
  faultsRoutes,
  signalsRoutes,
  sunspecRoutes,
  registerTemplatesRoutes,
  telemetryRoutes,
  auditRoutes,
  streamRoutes,
  alarmsRoutes,
  kpiRoutes,
  camerasRoutes,
  topologyRoutes,
  mapRoutes,
  settingsRoutes,
  co2FactorsRoutes,
  fleetKeysRoutes,
  backupRoutes,
  adminSessionsRoutes,
  reportsRoutes,
  budgetsRoutes,
  reportSchedulesRoutes,
  performanceRoutes,
  dataQualityRoutes,
  stringHealthRoutes,
  historyImportRoutes,
  edgeRoutes,
];
