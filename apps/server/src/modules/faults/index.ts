/**
 * The faults module's public face: code outside modules/faults/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { FaultsService, createFaultFromAlarm } from './faults.service';
