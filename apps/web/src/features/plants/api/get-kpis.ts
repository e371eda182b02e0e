import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { plantKpisAnswer, type KpiPeriod, type PlantKpisAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from './query-keys';

/** GET plants/{id}/kpis?period=&date=: IEC 61724-1 KPIs of the period, its rows and the model inputs. */
export async function getPlantKpis(
  plantId: number,
  period: KpiPeriod,
  date: string | null,
  signal?: AbortSignal,
): Promise<PlantKpisAnswer> {
  const query = `period=${period}${date ? `&date=${date}` : ''}`;
  return plantKpisAnswer.parse(await api.get<unknown>(`plants/${plantId}/kpis?${query}`, { signal }));
}

/** A plant's KPIs; the previous period stays on screen while the next loads. */
export const plantKpisQueryOptions = (plantId: number, period: KpiPeriod, date: string | null) =>
  queryOptions({
    queryKey: plantKeys.kpis(plantId, period, date),
    queryFn: ({ signal }) => getPlantKpis(plantId, period, date, signal),
    placeholderData: keepPreviousData,
  });

/** Hook of plantKpisQueryOptions. */
export const usePlantKpis = (plantId: number, period: KpiPeriod, date: string | null) =>
  useQuery(plantKpisQueryOptions(plantId, period, date));
