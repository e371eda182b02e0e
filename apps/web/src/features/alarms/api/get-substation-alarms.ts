import { useQuery } from '@tanstack/react-query';
import { alarmList, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';

/** Spec: the header polls the substation alarms every 3 minutes. */
export const SUBSTATION_POLL_MS = 3 * 60_000;
export const SUBSTATION_ALARMS_KEY = ['alarms', 'substation'] as const;

/** GET alarms/substationAlarms: active alarms of transformers, protection relays and meters. */
export async function getSubstationAlarms(): Promise<AlarmRecord[]> {
  return alarmList.parse(await api.get<unknown>('alarms/substationAlarms'));
}

/** The header badge's query: polled every 3 minutes and never cached (spec). */
export function useSubstationAlarms(enabled: boolean) {
  return useQuery({
    queryKey: SUBSTATION_ALARMS_KEY,
    queryFn: getSubstationAlarms,
    enabled,
    refetchInterval: SUBSTATION_POLL_MS,
    staleTime: 0,
    gcTime: 0,
  });
}
