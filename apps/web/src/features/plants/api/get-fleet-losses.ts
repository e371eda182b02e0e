import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fleetLossesAnswer, type FleetLossesAnswer, type KpiPeriod } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { plantKeys } from './query-keys';

/** GET plants/losses?period=&date=: every plant's expected and actual energy and loss by cause. */
export async function getFleetLosses(
  period: KpiPeriod,
  date: string,
  signal?: AbortSignal,
): Promise<FleetLossesAnswer> {
  return fleetLossesAnswer.parse(
    await api.get<unknown>(`plants/losses?period=${period}&date=${date}`, { signal }),
  );
}

/** The fleet's losses of a period; the previous period stays on screen while the next loads. */
export const fleetLossesQueryOptions = (period: KpiPeriod, date: string) =>
  queryOptions({
    queryKey: plantKeys.losses(period, date),
    queryFn: ({ signal }) => getFleetLosses(period, date, signal),
    placeholderData: keepPreviousData,
  });

/** Hook of fleetLossesQueryOptions. */
export const useFleetLosses = (period: KpiPeriod, date: string) =>
  useQuery(fleetLossesQueryOptions(period, date));
