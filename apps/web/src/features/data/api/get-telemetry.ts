import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { telemetryAnswer, type Aggregate, type Resolution, type TelemetryAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from '../../telemetry';

export interface TelemetryRequest {
  signalIds: number[];
  from: number;
  to: number;
  resolution: Resolution;
  agg: Aggregate;
}

/** The query string of GET telemetry and of its export: signals, ISO range, resolution, aggregate. */
export function telemetryParams(r: TelemetryRequest): URLSearchParams {
  return new URLSearchParams({
    signal_ids: r.signalIds.join(','),
    from: new Date(r.from).toISOString(),
    to: new Date(r.to).toISOString(),
    resolution: r.resolution,
    agg: r.agg,
  });
}

/** GET telemetry: one series per signal as [epoch ms, value] pairs. */
export async function getTelemetry(r: TelemetryRequest, signal?: AbortSignal): Promise<TelemetryAnswer> {
  return telemetryAnswer.parse(
    await api.get<unknown>(`telemetry?${telemetryParams(r).toString()}`, { signal }),
  );
}

/** The chart's query; the previous series stay on screen while a new range loads. */
export const telemetryQueryOptions = (r: TelemetryRequest) =>
  queryOptions({
    queryKey: telemetryKeys.series(r),
    queryFn: ({ signal }) => getTelemetry(r, signal),
    enabled: r.signalIds.length > 0,
    placeholderData: keepPreviousData,
  });

/** Hook of telemetryQueryOptions. */
export const useTelemetry = (r: TelemetryRequest) => useQuery(telemetryQueryOptions(r));
