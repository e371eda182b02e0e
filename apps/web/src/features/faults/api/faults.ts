import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  faultCommentSchema,
  faultDetailSchema,
  faultList,
  type FaultBody,
  type FaultComment,
  type FaultDetail,
  type FaultList,
  type FaultListQuery,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { useDeleteMutation, useSaveMutation } from '../../../lib/mutations';

/** GET faults: one page of faults, filtered and sorted by the server. */
export async function getFaults(query: FaultListQuery): Promise<FaultList> {
  return faultList.parse(await api.get<unknown>(withQuery('faults', query)));
}

/** The fault table's query; the previous page stays on screen while the next loads. */
export function useFaults(query: FaultListQuery) {
  return useQuery({
    queryKey: ['faults', 'list', query],
    queryFn: () => getFaults(query),
    placeholderData: keepPreviousData,
  });
}

/** GET faults/{id}: the fault with its comments and status history. */
export async function getFault(id: number): Promise<FaultDetail> {
  return faultDetailSchema.parse(await api.get<unknown>(`faults/${id}`));
}

/** The detail page's query; a 404 is not retried. */
export function useFault(id: number) {
  return useQuery({
    queryKey: ['faults', 'detail', id],
    queryFn: () => getFault(id),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

/** POST faults/{id}: id 0 creates a fault by hand, any other id updates the whole record. */
export async function saveFault({ id, body }: { id: number; body: FaultBody }): Promise<FaultDetail> {
  return faultDetailSchema.parse(await api.post<unknown>(`faults/${id}`, body));
}

/** Saves a fault and refreshes the fault lists and details. */
export const useSaveFault = () => useSaveMutation(saveFault, ['faults']);

/** POST faults/{id}/comments: adds a comment to the thread. */
export async function addComment({ id, body }: { id: number; body: string }): Promise<FaultComment> {
  return faultCommentSchema.parse(await api.post<unknown>(`faults/${id}/comments`, { body }));
}

/** Adds a comment and refreshes the fault's detail. */
export function useAddComment(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => addComment({ id, body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['faults', 'detail', id] }),
  });
}

/** DELETE faults/{id}. */
export async function deleteFault(id: number): Promise<void> {
  await api.delete<unknown>(`faults/${id}`);
}

/** Deletes a fault and refreshes the fault lists. */
export const useDeleteFault = () => useDeleteMutation(deleteFault, ['faults']);
