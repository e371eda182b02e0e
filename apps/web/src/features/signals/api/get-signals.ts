import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { signalList, type SignalList, type SignalListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { signalKeys } from './query-keys';

/** GET signals: one page of signals (of one device here), searched and sorted by the server. */
export async function getSignals(query: SignalListQuery): Promise<SignalList> {
  return signalList.parse(await api.get<unknown>(withQuery('signals', query)));
}

/** The signals table's query; the previous page stays on screen while the next loads. */
export const signalsQueryOptions = (query: SignalListQuery) =>
  queryOptions({
    queryKey: signalKeys.list(query),
    queryFn: () => getSignals(query),
    placeholderData: keepPreviousData,
  });

/** Hook of signalsQueryOptions. */
export const useSignals = (query: SignalListQuery) => useQuery(signalsQueryOptions(query));
