/**
 * The alarms module's public face: code outside modules/alarms/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { countActiveAlarms, listAlarms, type ActiveAlarmCount } from './alarms.repository';
export { AlarmsService, byPriority } from './alarms.service';
export {
  EDGE_SILENCE_MS,
  createAlarmEngine,
  type AlarmEngine,
  type AlarmEngineOptions,
  type EdgeAgentReport,
} from './engine/alarm-engine';
export {
  createAlarmFeed,
  type AlarmChange,
  type AlarmChangeListener,
  type AlarmFeed,
} from './engine/alarm-feed';
export { SILENT_PUBLISHER, createAlarmPublisher, type AlarmPublisher } from './engine/alarm-publish';
export type { RaiseRequest } from './engine/alarm-store.repository';
export { DEFAULT_PLANT_CONDITION_OPTIONS, type PlantConditionOptions } from './engine/plant-conditions';
