import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { plantList, type PlantList, type PlantListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';

/** GET plants: one page of plants, searched, filtered and sorted by the server. */
export async function getPlants(query: PlantListQuery): Promise<PlantList> {
  return plantList.parse(await api.get<unknown>(withQuery('plants', query)));
}

/** The plants table's query; the previous page stays on screen while the next loads. */
export function usePlants(query: PlantListQuery) {
  return useQuery({
    queryKey: ['plants', 'list', query],
    queryFn: () => getPlants(query),
    placeholderData: keepPreviousData,
  });
}
