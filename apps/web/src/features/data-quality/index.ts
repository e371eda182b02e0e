// The data-quality feature's public face: the card the plant and inverter pages show, the fleet's open
// problems the admin panel's collection health lists, and the query keys other features invalidate with.
export { dataQualityKeys } from './api/query-keys';
export { DataQualityCard } from './components/data-quality-card';
export { DataQualityProblems } from './components/problems-list';
export { FlagBandList, useFlagBands } from './components/flag-bands';
