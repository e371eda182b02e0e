// The history-import feature's public face: its query keys (the page itself is loaded by the route table).
export { historyImportKeys } from './api/history-import';
