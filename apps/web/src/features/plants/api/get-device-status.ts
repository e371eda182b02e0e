import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { plantDeviceStatusAnswer, type PlantDeviceStatusAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useAlarmEvents } from '../../alarms';
import { plantKeys } from './query-keys';

/** How often the statuses are fetched again: silence ages a device into offline without any event. */
export const DEVICE_STATUS_REFRESH_MS = 60_000;

/** GET plants/{id}/devices/status: each device's status by the server's one rule (engine/status.ts). */
export async function getDeviceStatus(
  plantId: number,
  signal?: AbortSignal,
): Promise<PlantDeviceStatusAnswer> {
  return plantDeviceStatusAnswer.parse(
    await api.get<unknown>(`plants/${plantId}/devices/status`, { signal }),
  );
}

/** The plant's device statuses, refetched every minute. */
export const deviceStatusQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: plantKeys.deviceStatus(plantId),
    queryFn: ({ signal }) => getDeviceStatus(plantId, signal),
    refetchInterval: DEVICE_STATUS_REFRESH_MS,
  });

/**
 * A plant's device statuses kept current: fetched again every minute and whenever an alarm of the plant
 * starts or ends over the live stream. Nothing is fetched while `plantId` is null.
 */
export function usePlantDeviceStatus(plantId: number | null) {
  const client = useQueryClient();
  useAlarmEvents((event) => {
    if (plantId !== null && event.alarm.plant_id === plantId)
      void client.invalidateQueries({ queryKey: plantKeys.deviceStatus(plantId) });
  }, plantId !== null);
  return useQuery({ ...deviceStatusQueryOptions(plantId ?? 0), enabled: plantId !== null });
}
