// The plant feature's public face: its query keys and the option list other features' forms choose from.
export { plantKeys } from './api/query-keys';
export { plantOptionsQueryOptions, usePlantOptions } from './api/get-plant-options';
export type { PlantOptionsFilter } from './api/get-plant-options';
