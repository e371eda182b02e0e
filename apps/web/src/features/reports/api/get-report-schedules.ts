import { queryOptions, useQuery } from '@tanstack/react-query';
import { reportScheduleList, type ReportSchedule } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { reportKeys } from './query-keys';

/** GET report-schedules: the user's own subscriptions. */
export async function getReportSchedules(): Promise<ReportSchedule[]> {
  return reportScheduleList.parse(await api.get<unknown>('report-schedules')).items;
}

/** The subscriptions table's query. */
export const reportSchedulesQueryOptions = () =>
  queryOptions({ queryKey: reportKeys.schedules(), queryFn: getReportSchedules });

/** Hook of reportSchedulesQueryOptions. */
export const useReportSchedules = () => useQuery(reportSchedulesQueryOptions());
