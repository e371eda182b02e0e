// The custom alarm feature's public face: its query keys.
export { customAlarmKeys } from './api/query-keys';
