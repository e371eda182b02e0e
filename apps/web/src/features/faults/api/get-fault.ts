import { queryOptions, useQuery } from '@tanstack/react-query';
import { faultDetailSchema, type FaultDetail } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { faultKeys } from './query-keys';

/** GET faults/{id}: the fault with its comments and status history. */
export async function getFault(id: number): Promise<FaultDetail> {
  return faultDetailSchema.parse(await api.get<unknown>(`faults/${id}`));
}

/** The detail page's query; a 404 is not retried. */
export const faultQueryOptions = (id: number) =>
  queryOptions({
    queryKey: faultKeys.detail(id),
    queryFn: () => getFault(id),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });

/** Hook of faultQueryOptions. */
export const useFault = (id: number) => useQuery(faultQueryOptions(id));
