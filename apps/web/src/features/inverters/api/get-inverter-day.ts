import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { telemetryAnswer, type TelemetryAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from '../../telemetry';

export interface InverterDayRequest {
  signalIds: number[];
  /** Start and end of the plant's local day, epoch ms. */
  from: number;
  to: number;
}

/** GET telemetry at 5-minute resolution: the day's series of the inverter's power signals. */
export async function getInverterDay(r: InverterDayRequest, signal?: AbortSignal): Promise<TelemetryAnswer> {
  const params = new URLSearchParams({
    signal_ids: r.signalIds.join(','),
    from: new Date(r.from).toISOString(),
    to: new Date(r.to).toISOString(),
    resolution: '5m',
    agg: 'avg',
  });
  return telemetryAnswer.parse(await api.get<unknown>(`telemetry?${params.toString()}`, { signal }));
}

/** The day chart's query; idle until the signals are known. */
export const inverterDayQueryOptions = (r: InverterDayRequest) =>
  queryOptions({
    queryKey: telemetryKeys.series({ ...r, resolution: '5m', agg: 'avg' }),
    queryFn: ({ signal }) => getInverterDay(r, signal),
    enabled: r.signalIds.length > 0,
    placeholderData: keepPreviousData,
  });

/** Hook of inverterDayQueryOptions. */
export const useInverterDay = (r: InverterDayRequest) => useQuery(inverterDayQueryOptions(r));
