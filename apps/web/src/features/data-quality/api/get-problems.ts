import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  dataQualityProblemList,
  type DataQualityProblemList,
  type DataQualityProblemsQuery,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dataQualityKeys } from './query-keys';

/** GET data-quality/problems: the open problems of the caller's plants, newest first, one page. */
export async function getDataQualityProblems(
  query: DataQualityProblemsQuery,
): Promise<DataQualityProblemList> {
  const params = new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
  return dataQualityProblemList.parse(await api.get<unknown>(`data-quality/problems?${params.toString()}`));
}

/** Refreshed every minute while the admin tab is open: the job adds today's flags hourly. */
export const useDataQualityProblems = (query: DataQualityProblemsQuery) =>
  useQuery({
    queryKey: dataQualityKeys.problems(query),
    queryFn: () => getDataQualityProblems(query),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
