import { queryOptions, useQuery } from '@tanstack/react-query';
import { activeAlarmCounts, type ActiveAlarmCounts } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { alarmKeys } from './query-keys';
import { SUBSTATION_POLL_MS } from './get-substation-alarms';

/** GET alarms/activeCounts: the alarms active now in the user's scope, by priority (the one count). */
export async function getActiveAlarmCounts(signal?: AbortSignal): Promise<ActiveAlarmCounts> {
  return activeAlarmCounts.parse(await api.get<unknown>('alarms/activeCounts', { signal }));
}

/**
 * The header badge's query: polled as the header's alarm calls are (every 3 minutes), never cached, and
 * fetched again on every pushed alarm event (alarm-events.ts), so it moves with /alarms.
 */
export const activeAlarmCountsQueryOptions = () =>
  queryOptions({
    queryKey: alarmKeys.activeCounts(),
    queryFn: ({ signal }) => getActiveAlarmCounts(signal),
    refetchInterval: SUBSTATION_POLL_MS,
    staleTime: 0,
    gcTime: 0,
  });

/** Hook of activeAlarmCountsQueryOptions; idle while `enabled` is false. */
export const useActiveAlarmCounts = (enabled: boolean) =>
  useQuery({ ...activeAlarmCountsQueryOptions(), enabled });
