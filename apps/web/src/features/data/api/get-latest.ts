import { useQueries } from '@tanstack/react-query';
import { latestAnswer, type LatestValue } from '@solar/shared';
import { api } from '../../../lib/api-client';

/** GET telemetry/latest?device_id=: the newest stored value of each signal of a device. */
export async function getLatest(deviceId: number): Promise<LatestValue[]> {
  return latestAnswer.parse(await api.get<unknown>(`telemetry/latest?device_id=${deviceId}`)).items;
}

/** The newest stored values of the devices' signals by signal id: the table's start before live values arrive. */
export function useLatestValues(deviceIds: readonly number[]): Map<number, LatestValue> {
  return useQueries({
    queries: deviceIds.map((id) => ({ queryKey: ['telemetry', 'latest', id], queryFn: () => getLatest(id) })),
    combine: (results) => new Map(results.flatMap((r) => r.data ?? []).map((v) => [v.signal_id, v])),
  });
}
