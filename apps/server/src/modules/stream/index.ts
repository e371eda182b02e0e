/**
 * The stream module's public face: code outside modules/stream/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export type { StreamHub } from './stream.hub';
export { createStreamHub } from './stream.service';
