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

/** GET plants/{id}/performance?from&to: the soiling loss of a period (the plant page's loss view). */
export const plantSoilingPeriodQueryOptions = (plantId: number, from: string, to: string) =>
  queryOptions({
    queryKey: [...performanceKeys.plant(plantId), 'period', from, to] as const,
    queryFn: async ({ signal }) =>
      plantPerformanceAnswer.parse(
        await api.get<unknown>(`plants/${plantId}/performance?from=${from}&to=${to}`, { signal }),
      ).soiling_period ?? null,
    staleTime: 10 * 60_000,
  });

export const usePlantSoilingPeriod = (plantId: number, from: string, to: string) =>
  useQuery(plantSoilingPeriodQueryOptions(plantId, from, to));
