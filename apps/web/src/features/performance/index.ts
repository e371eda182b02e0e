// The performance feature's public face: the plant page's degradation and soiling card (with the model
// parameters form behind it) and its query keys.
export { PerformanceCard } from './components/performance-card';
export { performanceKeys } from './api/query-keys';
export { usePlantSoilingPeriod } from './api/get-performance';
