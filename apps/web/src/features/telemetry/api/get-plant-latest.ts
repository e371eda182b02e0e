import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { latestAnswer, type LatestValue } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from './query-keys';

/** GET telemetry/latest?plant_id=: the newest stored value of each signal of the plant's devices. */
export async function getPlantLatest(plantId: number, signal?: AbortSignal): Promise<LatestValue[]> {
  return latestAnswer.parse(await api.get<unknown>(`telemetry/latest?plant_id=${plantId}`, { signal })).items;
}

/** A plant's newest stored values: where live values start before the stream pushes new ones. */
export const plantLatestQueryOptions = (plantId: number) =>
  queryOptions({
    queryKey: telemetryKeys.plantLatest(plantId),
    queryFn: ({ signal }) => getPlantLatest(plantId, signal),
  });

/** Hook of plantLatestQueryOptions. */
export const usePlantLatest = (plantId: number) => useQuery(plantLatestQueryOptions(plantId));

/** The stored latest values of several plants, flattened (for watching their signals live). */
export const usePlantsLatest = (plantIds: readonly number[]): LatestValue[] =>
  useQueries({
    queries: plantIds.map((id) => plantLatestQueryOptions(id)),
    combine: (results) => results.flatMap((r) => r.data ?? []),
  });
