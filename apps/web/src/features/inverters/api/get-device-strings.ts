import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { deviceStringsAnswer, type DeviceStringsAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { inverterKeys } from './query-keys';

/** The strings are judged on 5-minute rollups: refreshing more often shows nothing new. */
const REFRESH_MS = 5 * 60_000;

/** GET devices/{id}/strings?date=: the inverter's strings over one of its plant's days. */
export async function getDeviceStrings(
  id: number,
  date: string,
  signal?: AbortSignal,
): Promise<DeviceStringsAnswer> {
  return deviceStringsAnswer.parse(await api.get<unknown>(`devices/${id}/strings?date=${date}`, { signal }));
}

export const deviceStringsQueryOptions = (id: number, date: string) =>
  queryOptions({
    queryKey: inverterKeys.strings(id, date),
    queryFn: ({ signal }) => getDeviceStrings(id, date, signal),
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

/** Hook of deviceStringsQueryOptions. */
export const useDeviceStrings = (id: number, date: string) => useQuery(deviceStringsQueryOptions(id, date));
