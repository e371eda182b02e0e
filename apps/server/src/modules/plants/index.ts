/**
 * The plants module's public face: code outside modules/plants/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { plantNames } from './plants.repository';
