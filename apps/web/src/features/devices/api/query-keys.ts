import type { DeviceListQuery } from '@solar/shared';

/**
 * Query keys of the device calls. Every key starts with `all`, so invalidating `all` refreshes them all;
 * other features invalidate through this factory, never a literal key.
 */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (query: DeviceListQuery) => [...deviceKeys.all, 'list', query] as const,
  detail: (id: number) => [...deviceKeys.all, 'detail', id] as const,
  options: (plantId: number | null) => [...deviceKeys.all, 'options', plantId] as const,
  ingestKey: (deviceId: number) => [...deviceKeys.all, 'ingest-key', deviceId] as const,
  registerTemplates: ['devices', 'register-templates'] as const,
};
