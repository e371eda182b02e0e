import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmPage, ALARM_STATUS, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dashboardKeys } from './query-keys';

/** Most active alarms a list widget asks for: one screenful, the newest. */
export const ACTIVE_ALARMS_SHOWN = 50;

/** GET alarms?status_id=1&page=1: the newest active alarms in scope (of one plant when given) and their count. */
export async function getActiveAlarms(
  plantId: number | null,
  signal?: AbortSignal,
): Promise<{ items: AlarmRecord[]; total: number }> {
  const params = new URLSearchParams({
    status_id: String(ALARM_STATUS.active),
    page: '1',
    pageSize: String(ACTIVE_ALARMS_SHOWN),
  });
  if (plantId !== null) params.set('plant_id', String(plantId));
  return alarmPage.parse(await api.get<unknown>(`alarms?${params.toString()}`, { signal }));
}

/** Under `alarmKeys.all`, so alarm decisions anywhere refresh the widget too. */
export const activeAlarmsQueryOptions = (plantId: number | null) =>
  queryOptions({
    queryKey: dashboardKeys.activeAlarms(plantId),
    queryFn: ({ signal }) => getActiveAlarms(plantId, signal),
  });

/** Hook of activeAlarmsQueryOptions. */
export const useActiveAlarms = (plantId: number | null) => useQuery(activeAlarmsQueryOptions(plantId));
