import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { plantList, type PlantList, type PlantListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { plantKeys } from './query-keys';

/** GET plants: one page of plants, searched, filtered and sorted by the server. */
export async function getPlants(query: PlantListQuery): Promise<PlantList> {
  return plantList.parse(await api.get<unknown>(withQuery('plants', query)));
}

/** The plants table's query; the previous page stays on screen while the next loads. */
export const plantsQueryOptions = (query: PlantListQuery) =>
  queryOptions({
    queryKey: plantKeys.list(query),
    queryFn: () => getPlants(query),
    placeholderData: keepPreviousData,
  });

/** Hook of plantsQueryOptions. */
export const usePlants = (query: PlantListQuery) => useQuery(plantsQueryOptions(query));
