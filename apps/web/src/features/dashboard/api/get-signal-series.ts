import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { telemetryAnswer, type TelemetryAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from '../../telemetry';
import type { WidgetPeriod } from '../model/widgets';

/** How far back a trend of each period reaches. */
export const PERIOD_SPAN_MS: Record<WidgetPeriod, number> = {
  day: 24 * 3_600_000,
  week: 7 * 24 * 3_600_000,
  month: 30 * 24 * 3_600_000,
  year: 365 * 24 * 3_600_000,
};

/** How often a trend is fetched again: about its 5-minute rollup step, so the line keeps up. */
export const TREND_REFRESH_MS = 5 * 60_000;

/** GET telemetry of signals over the last period up to now, at the resolution the server picks. */
export async function getSignalSeries(
  signalIds: readonly number[],
  period: WidgetPeriod,
  signal?: AbortSignal,
): Promise<TelemetryAnswer> {
  const to = Date.now();
  const params = new URLSearchParams({
    signal_ids: signalIds.join(','),
    from: new Date(to - PERIOD_SPAN_MS[period]).toISOString(),
    to: new Date(to).toISOString(),
    resolution: 'auto',
  });
  return telemetryAnswer.parse(await api.get<unknown>(`telemetry?${params.toString()}`, { signal }));
}

/** A trend's query; idle without signals, fetched again every few minutes. */
export const signalSeriesQueryOptions = (signalIds: readonly number[], period: WidgetPeriod) =>
  queryOptions({
    queryKey: telemetryKeys.series({ signalIds, period, trend: true }),
    queryFn: ({ signal }) => getSignalSeries(signalIds, period, signal),
    enabled: signalIds.length > 0,
    refetchInterval: TREND_REFRESH_MS,
    placeholderData: keepPreviousData,
  });

/** Hook of signalSeriesQueryOptions. */
export const useSignalSeries = (signalIds: readonly number[], period: WidgetPeriod) =>
  useQuery(signalSeriesQueryOptions(signalIds, period));
