import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { signalKeys } from './query-keys';

/** DELETE signals/{id}. */
export async function deleteSignal(id: number): Promise<void> {
  await api.delete<unknown>(`signals/${id}`);
}

/** Deletes a signal and refreshes the signal lists. */
export const useDeleteSignal = () => useDeleteMutation(deleteSignal, signalKeys.all);
