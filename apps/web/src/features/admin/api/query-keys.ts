import type { AuditListQuery } from '@solar/shared';

/**
 * Query keys of the admin panel's calls. Every key starts with `all`; other features (the header's site
 * name) read `publicSettings` through this factory, never a literal key.
 */
export const adminKeys = {
  all: ['admin'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  publicSettings: () => [...adminKeys.all, 'public-settings'] as const,
  co2Factors: () => [...adminKeys.all, 'co2-factors'] as const,
  audit: (query: AuditListQuery) => [...adminKeys.all, 'audit', query] as const,
  health: () => [...adminKeys.all, 'collection-health'] as const,
  collectors: () => [...adminKeys.all, 'collectors-health'] as const,
  ingestKeys: () => [...adminKeys.all, 'ingest-keys'] as const,
  system: () => [...adminKeys.all, 'system'] as const,
  sessions: () => [...adminKeys.all, 'sessions'] as const,
};
