/**
 * The audit module's public face: code outside modules/audit/ imports only from here (docs/architecture.md,
 * "Module boundaries").
 */
export { auditedRemove, auditedSave } from './audited-write';
export { recordAudit } from './record-audit';
