import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmList, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { alarmKeys } from './query-keys';

/** GET alarms: every alarm in scope, newest first (the server caps the plain list at 1,000). */
export async function getAlarms(): Promise<AlarmRecord[]> {
  return alarmList.parse(await api.get<unknown>('alarms'));
}

/** The /alarms table's query; the status filter works on the client, as the spec has it. */
export const alarmsQueryOptions = () => queryOptions({ queryKey: alarmKeys.list(), queryFn: getAlarms });

/** Hook of alarmsQueryOptions. */
export const useAlarms = () => useQuery(alarmsQueryOptions());
