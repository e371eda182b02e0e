// The signal feature's public face: its query keys.
export { signalKeys } from './api/query-keys';
export { signalsQueryOptions, useSignals } from './api/get-signals';
