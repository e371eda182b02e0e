import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { plantPowerAnswer, type PlantPowerAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from './query-keys';

/** GET plants/{id}/power?date=: the day's 5-minute actual power, expected power and POA irradiance. */
export async function getPlantPower(
  plantId: number,
  date: string | null,
  signal?: AbortSignal,
): Promise<PlantPowerAnswer> {
  const path = `plants/${plantId}/power${date ? `?date=${date}` : ''}`;
  return plantPowerAnswer.parse(await api.get<unknown>(path, { signal }));
}

/** A plant's power chart of a day; the previous day stays on screen while the next loads. */
export const plantPowerQueryOptions = (plantId: number, date: string | null) =>
  queryOptions({
    queryKey: plantKeys.power(plantId, date),
    queryFn: ({ signal }) => getPlantPower(plantId, date, signal),
    placeholderData: keepPreviousData,
  });

/** Hook of plantPowerQueryOptions. */
export const usePlantPower = (plantId: number, date: string | null) =>
  useQuery(plantPowerQueryOptions(plantId, date));
