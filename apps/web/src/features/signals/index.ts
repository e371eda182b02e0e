// The signal feature's public face: its query keys.
export { signalKeys } from './api/query-keys';
