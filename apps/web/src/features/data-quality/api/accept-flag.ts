import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataQualityFlagSchema, type DataQualityFlag } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dataQualityKeys } from './query-keys';

/** POST data-quality/flags/{id}/accept: the data is right after all (audited on the server). */
export async function acceptFlag(input: { id: number; note: string }): Promise<DataQualityFlag> {
  return dataQualityFlagSchema.parse(
    await api.post<unknown>(`data-quality/flags/${input.id}/accept`, { note: input.note }),
  );
}

/** Accepts, then refreshes every data-quality answer (the cards and the admin list). */
export function useAcceptFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acceptFlag,
    onSuccess: () => void client.invalidateQueries({ queryKey: dataQualityKeys.all }),
  });
}
