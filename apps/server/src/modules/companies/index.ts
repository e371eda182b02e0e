/**
 * The companies module's public face: code outside modules/companies/ imports only from here (docs/architecture.md,
 * "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { recipientTimeZone } from './company-time-zone';
