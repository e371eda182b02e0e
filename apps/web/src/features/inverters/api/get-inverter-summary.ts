import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { inverterSummaryAnswer, type InverterSummaryAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { inverterKeys } from './query-keys';

/** Live values are refreshed this often while the page is open (the simulator writes every 30 s). */
const REFRESH_MS = 30_000;

/** GET inverters/{id}/summary[?date=]: the inverter's live values, the day's energy and its peers. */
export async function getInverterSummary(
  id: number,
  date: string | null,
  signal?: AbortSignal,
): Promise<InverterSummaryAnswer> {
  const query = date ? `?date=${date}` : '';
  return inverterSummaryAnswer.parse(await api.get<unknown>(`inverters/${id}/summary${query}`, { signal }));
}

/** The summary query; the previous day's answer stays on screen while another day loads. */
export const inverterSummaryQueryOptions = (id: number, date: string | null) =>
  queryOptions({
    queryKey: inverterKeys.summary(id, date),
    queryFn: ({ signal }) => getInverterSummary(id, date, signal),
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

/** Hook of inverterSummaryQueryOptions. */
export const useInverterSummary = (id: number, date: string | null) =>
  useQuery(inverterSummaryQueryOptions(id, date));
