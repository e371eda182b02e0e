/**
 * The signals module's public face: code outside modules/signals/ imports only from here (docs/architecture.md,
 * "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { addLayoutSignals, type LayoutSignal } from './signals.repository';
