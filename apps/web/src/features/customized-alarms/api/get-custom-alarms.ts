import { queryOptions, useQuery } from '@tanstack/react-query';
import { customAlarmList, type CustomAlarm } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { customAlarmKeys } from './query-keys';

/** GET alarms/custom: every custom rule in reach. */
export async function getCustomAlarms(): Promise<CustomAlarm[]> {
  return customAlarmList.parse(await api.get<unknown>('alarms/custom'));
}

/** The rule table's query. */
export const customAlarmsQueryOptions = () =>
  queryOptions({ queryKey: customAlarmKeys.list(), queryFn: getCustomAlarms });

/** Hook of customAlarmsQueryOptions. */
export const useCustomAlarms = () => useQuery(customAlarmsQueryOptions());
