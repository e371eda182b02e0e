import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { plantKeys } from './query-keys';

/** DELETE plants/{id}: refused with 409 errors.hasChildren while devices remain. */
export async function deletePlant(id: number): Promise<void> {
  await api.delete<unknown>(`plants/${id}`);
}

/** Deletes a plant and refreshes the plant lists. */
export const useDeletePlant = () => useDeleteMutation(deletePlant, plantKeys.all);
