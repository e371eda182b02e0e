import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { faultList, type FaultList, type FaultListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { faultKeys } from './query-keys';

/** GET faults: one page of faults, filtered and sorted by the server. */
export async function getFaults(query: FaultListQuery): Promise<FaultList> {
  return faultList.parse(await api.get<unknown>(withQuery('faults', query)));
}

/** The fault table's query; the previous page stays on screen while the next loads. */
export const faultsQueryOptions = (query: FaultListQuery) =>
  queryOptions({
    queryKey: faultKeys.list(query),
    queryFn: () => getFaults(query),
    placeholderData: keepPreviousData,
  });

/** Hook of faultsQueryOptions. */
export const useFaults = (query: FaultListQuery) => useQuery(faultsQueryOptions(query));
