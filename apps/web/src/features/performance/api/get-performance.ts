import { queryOptions, useQuery } from '@tanstack/react-query';
import { plantPerformanceAnswer, type PlantPerformanceAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { performanceKeys } from './query-keys';

/** GET plants/{id}/performance */
export async function getPlantPerformance(
  plantId: number,
  signal?: AbortSignal,
): Promise<PlantPerformanceAnswer> {
  return plantPerformanceAnswer.parse(await api.get<unknown>(`plants/${plantId}/performance`, { signal }));
}

/** A plant's degradation and soiling (page `plant`); the days behind it change once a day. */
export const plantPerformanceQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: performanceKeys.plant(plantId),
    queryFn: ({ signal }) => getPlantPerformance(plantId, signal),
    staleTime: 10 * 60_000,
  });

export const usePlantPerformance = (plantId: number) => useQuery(plantPerformanceQueryOptions(plantId));
