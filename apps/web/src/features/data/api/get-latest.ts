import { queryOptions, useQueries } from '@tanstack/react-query';
import { latestAnswer, type LatestValue } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from '../../telemetry';

/** GET telemetry/latest?device_id=: the newest stored value of each signal of a device. */
export async function getLatest(deviceId: number): Promise<LatestValue[]> {
  return latestAnswer.parse(await api.get<unknown>(`telemetry/latest?device_id=${deviceId}`)).items;
}

/** The newest stored values of one device's signals. */
export const latestQueryOptions = (deviceId: number) =>
  queryOptions({ queryKey: telemetryKeys.latest(deviceId), queryFn: () => getLatest(deviceId) });

/** The newest stored values of the devices' signals by signal id: the table's start before live values arrive. */
export function useLatestValues(deviceIds: readonly number[]): Map<number, LatestValue> {
  return useQueries({
    queries: deviceIds.map((id) => latestQueryOptions(id)),
    combine: (results) => new Map(results.flatMap((r) => r.data ?? []).map((v) => [v.signal_id, v])),
  });
}
