/**
 * The companies module's public face: code outside modules/companies/ imports only from here (docs/architecture.md,
 * "Module boundaries"). Nothing of it is used elsewhere yet; its routes are registered by modules/index.ts.
 */
export {};
