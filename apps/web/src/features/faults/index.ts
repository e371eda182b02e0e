// The fault feature's public face: its query keys, for features whose actions create or change faults.
export { faultKeys } from './api/query-keys';
