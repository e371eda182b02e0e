/**
 * The topology module's public face: code outside modules/topology/ imports only from here (docs/architecture.md,
 * "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { upstreamDevices, type WiredDevice } from './topology-graph';
