import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmPage, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { alarmKeys } from './query-keys';

/** How many of a device's alarms its page lists: the newest, as an operator scans them. */
export const DEVICE_ALARMS_SHOWN = 50;

/** GET alarms?device_id=&page=1: the device's newest alarms (all statuses) and how many it has. */
export async function getDeviceAlarms(
  deviceId: number,
  signal?: AbortSignal,
): Promise<{ items: AlarmRecord[]; total: number }> {
  return alarmPage.parse(
    await api.get<unknown>(`alarms?device_id=${deviceId}&page=1&pageSize=${DEVICE_ALARMS_SHOWN}`, { signal }),
  );
}

/** A device's alarm history query. */
export const deviceAlarmsQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: alarmKeys.device(deviceId),
    queryFn: ({ signal }) => getDeviceAlarms(deviceId, signal),
    enabled: Number.isInteger(deviceId) && deviceId > 0,
  });

/** Hook of deviceAlarmsQueryOptions. */
export const useDeviceAlarms = (deviceId: number) => useQuery(deviceAlarmsQueryOptions(deviceId));
