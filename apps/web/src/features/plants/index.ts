// The plant feature's public face: its query keys, the option list other features' forms choose from, and
// the overview (status, live power, energy, PR) with its live refresh and status tag, which the map and the
// single-line page show too.
export { plantKeys } from './api/query-keys';
export { plantOptionsQueryOptions, usePlantOptions } from './api/get-plant-options';
export type { PlantOptionsFilter } from './api/get-plant-options';
export { plantsOverviewQueryOptions, usePlantsOverview } from './api/get-overview';
export { useLiveOverview } from './components/live-overview';
export { StatusTag, STATUS_RANK } from './components/status-tag';
export { ExcludedNote } from './components/excluded-note';
export { usePlantDeviceStatus, deviceStatusQueryOptions } from './api/get-device-status';
export {
  AlarmCounts,
  CoverageValue,
  EnergyWithSource,
  LossHeading,
  LossValue,
  PowerBar,
  PrValue,
  YieldValue,
} from './components/plant-figures';
// A plant's day of power against expected power and its KPIs of a period, with the chart of the former
// (the dashboard's plant widgets draw them too).
export { plantPowerQueryOptions, usePlantPower } from './api/get-power';
export { plantKpisQueryOptions, usePlantKpis } from './api/get-kpis';
export { powerOption, powerSeriesNames } from './components/chart-options';
export { usePlantChartLabels } from './components/chart-labels';
