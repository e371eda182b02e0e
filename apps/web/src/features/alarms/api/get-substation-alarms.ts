import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmList, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { alarmKeys } from './query-keys';

/** Spec: the header polls the substation alarms every 3 minutes. */
export const SUBSTATION_POLL_MS = 3 * 60_000;

/** GET alarms/substationAlarms: active alarms of transformers, protection relays and meters. */
export async function getSubstationAlarms(): Promise<AlarmRecord[]> {
  return alarmList.parse(await api.get<unknown>('alarms/substationAlarms'));
}

/** The header badge's query: polled every 3 minutes and never cached (spec). */
export const substationAlarmsQueryOptions = () =>
  queryOptions({
    queryKey: alarmKeys.substation(),
    queryFn: getSubstationAlarms,
    refetchInterval: SUBSTATION_POLL_MS,
    staleTime: 0,
    gcTime: 0,
  });

/** Hook of substationAlarmsQueryOptions; idle while `enabled` is false. */
export const useSubstationAlarms = (enabled: boolean) =>
  useQuery({ ...substationAlarmsQueryOptions(), enabled });
