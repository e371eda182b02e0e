/**
 * The history-import module's public face: code outside modules/history-import/ imports only from here
 * (docs/architecture.md, "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { readHistoryFile, HistoryFileRefused } from './history-file';
