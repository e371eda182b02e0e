import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { reportKeys } from './query-keys';

/** DELETE report-schedules/{id}. */
export async function deleteReportSchedule(id: number): Promise<void> {
  await api.delete<unknown>(`report-schedules/${id}`);
}

/** Removes a subscription and refreshes the list. */
export const useDeleteReportSchedule = () => useDeleteMutation(deleteReportSchedule, reportKeys.schedules());
