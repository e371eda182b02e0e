import { queryOptions, useQuery } from '@tanstack/react-query';
import { reportAnswer, type ReportAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { reportKeys } from './query-keys';
import { reportParams, type ReportRequest } from './report-request';

/** GET reports/{type}?format=json: the preview's data. */
export async function getReport(r: ReportRequest, signal?: AbortSignal): Promise<ReportAnswer> {
  return reportAnswer.parse(
    await api.get<unknown>(`reports/${r.type}?${reportParams(r, 'json').toString()}`, { signal }),
  );
}

/** The preview's query; idle until the user asks for a preview. */
export const reportQueryOptions = (r: ReportRequest | null) =>
  queryOptions({
    queryKey: reportKeys.preview(r ?? {}),
    queryFn: ({ signal }) => getReport(r!, signal),
    enabled: r !== null,
  });

/** Hook of reportQueryOptions. */
export const useReport = (r: ReportRequest | null) => useQuery(reportQueryOptions(r));
