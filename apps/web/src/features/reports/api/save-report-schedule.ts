import { reportScheduleSchema, type ReportSchedule, type ReportScheduleBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { reportKeys } from './query-keys';

/** POST report-schedules/{id}: id 0 subscribes, any other id updates (and pauses or resumes). */
export async function saveReportSchedule({
  id,
  body,
}: {
  id: number;
  body: ReportScheduleBody;
}): Promise<ReportSchedule> {
  return reportScheduleSchema.parse(await api.post<unknown>(`report-schedules/${id}`, body));
}

/** Saves a subscription and refreshes the list. */
export const useSaveReportSchedule = () => useSaveMutation(saveReportSchedule, reportKeys.schedules());

/** The body of a subscription as it stands, for a save that changes one field (pause, resume). */
export const scheduleBodyOf = (s: ReportSchedule): ReportScheduleBody => ({
  report_type: s.report_type,
  plant_ids: s.plant_ids,
  formats: s.formats,
  frequency: s.frequency,
  local_time: s.local_time,
  weekday: s.weekday,
  is_paused: s.is_paused,
});
