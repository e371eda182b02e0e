// The device feature's public face: its query keys and the option list other features' forms choose from.
export { deviceKeys } from './api/query-keys';
export { deviceOptionsQueryOptions, useDeviceOptions } from './api/get-device-options';
export { deviceQueryOptions, useDevice } from './api/get-device';
