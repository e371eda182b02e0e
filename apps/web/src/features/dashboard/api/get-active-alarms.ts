import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmPage, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dashboardKeys } from './query-keys';

/** Most active alarms a list widget asks for: one screenful, the newest. */
export const ACTIVE_ALARMS_SHOWN = 50;

/**
 * GET alarms?active=true&page=1: the newest alarms active in scope (of one plant when given; acknowledged
 * or not, the one definition the header badge and /alarms count) and their count.
 */
export async function getActiveAlarms(
  plantId: number | null,
  signal?: AbortSignal,
): Promise<{ items: AlarmRecord[]; total: number }> {
  const params = new URLSearchParams({
    active: 'true',
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
