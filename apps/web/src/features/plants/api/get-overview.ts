import { queryOptions, useQuery } from '@tanstack/react-query';
import { plantsOverviewAnswer, type PlantOverviewItem } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from './query-keys';

/** GET plants/overview: every plant in scope with status, live power, today's energy, PR and alarms. */
export async function getPlantsOverview(signal?: AbortSignal): Promise<PlantOverviewItem[]> {
  return plantsOverviewAnswer.parse(await api.get<unknown>('plants/overview', { signal })).items;
}

/** The overview query; live updates invalidate it, so it keeps its data while refetching. */
export const plantsOverviewQueryOptions = () =>
  queryOptions({ queryKey: plantKeys.overview(), queryFn: ({ signal }) => getPlantsOverview(signal) });

/** Hook of plantsOverviewQueryOptions. */
export const usePlantsOverview = () => useQuery(plantsOverviewQueryOptions());
