import { queryOptions, useQuery } from '@tanstack/react-query';
import { telemetryAnswer, type TelemetryAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { telemetryKeys } from '../../telemetry';

/** How far before and after the alarm time the fault's chart reaches. */
export const FAULT_CHART_MARGIN_MS = 2 * 60 * 60_000;

/** The fault chart's range: two hours either side of the alarm, never past now. */
export function faultChartRange(detectedAt: number, now: number): { from: number; to: number } {
  const from = detectedAt - FAULT_CHART_MARGIN_MS;
  // A clock a little behind the server could put `now` before `from`: keep the range non-empty.
  return { from, to: Math.max(from + 60_000, Math.min(detectedAt + FAULT_CHART_MARGIN_MS, now)) };
}

/** GET telemetry of one signal over a range, at the resolution the server picks. */
export async function getFaultTelemetry(
  signalId: number,
  range: { from: number; to: number },
  signal?: AbortSignal,
): Promise<TelemetryAnswer> {
  const params = new URLSearchParams({
    signal_ids: String(signalId),
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    resolution: 'auto',
  });
  return telemetryAnswer.parse(await api.get<unknown>(`telemetry?${params.toString()}`, { signal }));
}

/** The fault's signal around the alarm time; idle without a signal. */
export const faultTelemetryQueryOptions = (signalId: number | null, detectedAt: string) =>
  queryOptions({
    queryKey: telemetryKeys.series({ signalId, around: detectedAt }),
    queryFn: ({ signal }) =>
      getFaultTelemetry(signalId ?? 0, faultChartRange(Date.parse(detectedAt), Date.now()), signal),
    enabled: signalId !== null,
  });

/** Hook of faultTelemetryQueryOptions. */
export const useFaultTelemetry = (signalId: number | null, detectedAt: string) =>
  useQuery(faultTelemetryQueryOptions(signalId, detectedAt));
