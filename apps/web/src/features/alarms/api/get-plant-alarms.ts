import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmList, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { alarmKeys } from './query-keys';

/** GET alarms/{id}/plant: the alarms of one plant and its devices. */
export async function getPlantAlarms(plantId: number, signal?: AbortSignal): Promise<AlarmRecord[]> {
  return alarmList.parse(await api.get<unknown>(`alarms/${plantId}/plant`, { signal }));
}

/** A plant's alarms; under `alarmKeys.all`, so alarm decisions refresh it too. */
export const plantAlarmsQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: alarmKeys.plant(plantId),
    queryFn: ({ signal }) => getPlantAlarms(plantId, signal),
  });

/** Hook of plantAlarmsQueryOptions. */
export const usePlantAlarms = (plantId: number) => useQuery(plantAlarmsQueryOptions(plantId));
