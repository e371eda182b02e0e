/**
 * The performance module's public face: code outside modules/performance/ imports only from here
 * (docs/architecture.md, "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { PerformanceService, type PerformanceAnalyses, type PlantDegradation } from './performance.service';
export { KeptAnalyses } from './kept-analyses';
export {
  cleaningPayback,
  fitPvwattsParameters,
  soilingStochasticRateRecovery,
  yearOnYearDegradation,
} from './engine';
