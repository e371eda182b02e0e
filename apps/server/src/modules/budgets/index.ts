/**
 * The budgets module's public face: code outside modules/budgets/ imports only from here (docs/architecture.md,
 * "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export { createUploadReadingSlots, type UploadReadingSlots } from './upload-reading-slots';
/** Hostile budget files, built in memory: the upload proofs outside the module (two nodes) use them. */
export { manyRowsXlsx } from './budget-test-files';
