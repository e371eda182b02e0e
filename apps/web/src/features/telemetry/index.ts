// The telemetry feature's public face: the catalog that every signal picker reads, its keys, and the
// option that shows a signal's display and technical name.
export { catalogQueryOptions, getCatalog, useCatalogPlants, usePlantCatalog } from './api/get-catalog';
export { plantLatestQueryOptions, usePlantLatest, usePlantsLatest } from './api/get-plant-latest';
export { telemetryKeys } from './api/query-keys';
export {
  renderSignalOption,
  SIGNAL_SEARCH,
  signalOption,
  type SignalOption,
} from './components/signal-option';
