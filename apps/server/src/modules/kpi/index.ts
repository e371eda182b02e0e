/**
 * The kpi module's public face: code outside modules/kpi/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export {
  GRID_EMISSION_FACTORS,
  budgetFigures,
  communicationState,
  finalYieldKwhKwp,
  sumBudgetFigures,
  type GridEmissionFactor,
} from './engine';
export { deviceLinkOf } from './device-status.service';
export { startKpiRefresh } from './jobs/kpi-refresh';
export {
  findKpiPlants,
  loadPlantSignals,
  markDaysOfInstantsDirty,
  readBudgets,
  type KpiPlant,
} from './kpi.repository';
export { KpiService, type PlantWithSignals } from './kpi.service';
export { FleetLossesService, type PlantPeriodLosses } from './fleet-losses.service';
export { periodValuesOf, type DayFigures } from './plant-day.service';
