import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  adminIngestKeyList,
  collectionHealthAnswer,
  collectorsHealthAnswer,
  type CollectorsHealth,
  systemInfoAnswer,
  type AdminIngestKeyList,
  type CollectionHealthAnswer,
  type SystemInfo,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { adminKeys } from './query-keys';

/** GET admin/collection-health: per device, problems first. */
export async function getCollectionHealth(): Promise<CollectionHealthAnswer> {
  return collectionHealthAnswer.parse(await api.get<unknown>('admin/collection-health'));
}

/** Refreshed every 30 s while the tab is open: it is a monitor. */
export const useCollectionHealth = () =>
  useQuery(
    queryOptions({ queryKey: adminKeys.health(), queryFn: getCollectionHealth, refetchInterval: 30_000 }),
  );

/** GET health/collectors: the MQTT collector's connections and the broker's dropped count (administrator). */
export async function getCollectorsHealth(): Promise<CollectorsHealth> {
  return collectorsHealthAnswer.parse(await api.get<unknown>('health/collectors'));
}

export const useCollectorsHealth = (enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.collectors(),
    queryFn: getCollectorsHealth,
    enabled,
    refetchInterval: 30_000,
  });

/** GET admin/ingest-keys: the live keys of the fleet. */
export async function getIngestKeys(): Promise<AdminIngestKeyList> {
  return adminIngestKeyList.parse(await api.get<unknown>('admin/ingest-keys'));
}

export const useIngestKeys = () => useQuery({ queryKey: adminKeys.ingestKeys(), queryFn: getIngestKeys });

/** DELETE admin/ingest-keys/{id}: the key stops working at once. */
export async function revokeIngestKey(id: number): Promise<void> {
  await api.delete<unknown>(`admin/ingest-keys/${id}`);
}

export const useRevokeIngestKey = () => useDeleteMutation(revokeIngestKey, adminKeys.ingestKeys());

/** GET admin/system: version, migrations, backup way (administrator only). */
export async function getSystemInfo(): Promise<SystemInfo> {
  return systemInfoAnswer.parse(await api.get<unknown>('admin/system'));
}

export const useSystemInfo = (enabled = true) =>
  useQuery({ queryKey: adminKeys.system(), queryFn: getSystemInfo, enabled });
