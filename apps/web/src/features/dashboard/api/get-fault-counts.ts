import { useQueries } from '@tanstack/react-query';
import { faultList, type FaultListQuery, type FaultStatus } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { faultKeys } from '../../faults';

/** The states of a fault that is not closed yet, in the order work moves them. */
export const OPEN_FAULT_STATES = [
  'open',
  'in_progress',
  'resolved',
] as const satisfies readonly FaultStatus[];
export type OpenFaultState = (typeof OPEN_FAULT_STATES)[number];

/** How often the counts are fetched again: faults change by people's work, not by the second. */
export const FAULT_COUNTS_REFRESH_MS = 60_000;

const countQuery = (status: OpenFaultState, plantId: number | null): FaultListQuery => ({
  status,
  pageSize: 1,
  ...(plantId === null ? {} : { plant_id: plantId }),
});

/** GET faults?status=&pageSize=1: how many faults in scope (of one plant when given) are in the state. */
export async function getFaultCount(query: FaultListQuery, signal?: AbortSignal): Promise<number> {
  return faultList.parse(await api.get<unknown>(withQuery('faults', query), { signal })).total;
}

/**
 * The number of faults in each open state: one small page per state under the fault feature's keys, so
 * fault saves refresh them; also fetched again every minute.
 */
export function useOpenFaultCounts(plantId: number | null) {
  return useQueries({
    queries: OPEN_FAULT_STATES.map((status) => {
      const query = countQuery(status, plantId);
      return {
        queryKey: faultKeys.list(query),
        queryFn: ({ signal }: { signal: AbortSignal }) => getFaultCount(query, signal),
        refetchInterval: FAULT_COUNTS_REFRESH_MS,
      };
    }),
    combine: (results) => ({
      counts: results.every((r) => r.data !== undefined)
        ? { open: results[0]!.data, in_progress: results[1]!.data, resolved: results[2]!.data }
        : undefined,
      isLoading: results.some((r) => r.isLoading),
      isError: results.some((r) => r.isError),
      refetch: () => results.forEach((r) => void r.refetch()),
    }),
  });
}
