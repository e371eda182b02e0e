import { useMutation, useQueryClient } from '@tanstack/react-query';
import { faultCommentSchema, type FaultComment } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { faultKeys } from './query-keys';

/** POST faults/{id}/comments: adds a comment to the thread. */
export async function addComment({ id, body }: { id: number; body: string }): Promise<FaultComment> {
  return faultCommentSchema.parse(await api.post<unknown>(`faults/${id}/comments`, { body }));
}

/** Adds a comment and refreshes the fault's detail. */
export function useAddComment(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => addComment({ id, body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: faultKeys.detail(id) }),
  });
}
