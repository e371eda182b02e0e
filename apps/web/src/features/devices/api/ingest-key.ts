import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ingestKeyAnswer, ingestKeyInfo } from '@solar/shared';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { deviceKeys } from './query-keys';

export type IngestKeyInfo = z.infer<typeof ingestKeyInfo>;
export type IngestKeyAnswer = z.infer<typeof ingestKeyAnswer>;

/** GET devices/{id}/ingest-key: the prefix and creation time of the device's key (both null without one). */
export function useIngestKey(deviceId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.ingestKey(deviceId ?? 0),
    queryFn: async () => ingestKeyInfo.parse(await api.get<unknown>(`devices/${deviceId}/ingest-key`)),
    enabled: enabled && !!deviceId,
  });
}

/** POST devices/{id}/ingest-key: a new key (replacing any old one); the answer is the only time it is shown. */
export function useCreateIngestKey(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => ingestKeyAnswer.parse(await api.post<unknown>(`devices/${deviceId}/ingest-key`)),
    onSettled: () => client.invalidateQueries({ queryKey: deviceKeys.ingestKey(deviceId) }),
  });
}

/** DELETE devices/{id}/ingest-key: the device's key stops working. */
export function useRevokeIngestKey(deviceId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<unknown>(`devices/${deviceId}/ingest-key`),
    onSettled: () => client.invalidateQueries({ queryKey: deviceKeys.ingestKey(deviceId) }),
  });
}
