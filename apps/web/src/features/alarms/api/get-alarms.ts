import { useQuery } from '@tanstack/react-query';
import { alarmList, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';

/** Query key of the alarm list; every alarm query starts with `alarms`, so one invalidation reaches all. */
export const ALARM_LIST_KEY = ['alarms', 'list'] as const;

/** GET alarms: every alarm in scope, newest first (the server caps the plain list at 1,000). */
export async function getAlarms(): Promise<AlarmRecord[]> {
  return alarmList.parse(await api.get<unknown>('alarms'));
}

/** The /alarms table's query; the status filter works on the client, as the spec has it. */
export function useAlarms() {
  return useQuery({ queryKey: ALARM_LIST_KEY, queryFn: getAlarms });
}
