import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { faultKeys } from './query-keys';

/** DELETE faults/{id}. */
export async function deleteFault(id: number): Promise<void> {
  await api.delete<unknown>(`faults/${id}`);
}

/** Deletes a fault and refreshes the fault lists. */
export const useDeleteFault = () => useDeleteMutation(deleteFault, faultKeys.all);
