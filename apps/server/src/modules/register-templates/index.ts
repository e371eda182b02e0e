/**
 * The register-templates module's public face: code outside modules/register-templates/ imports only from
 * here (docs/architecture.md, "Module boundaries"). Its routes are registered by modules/index.ts.
 */
export {};
