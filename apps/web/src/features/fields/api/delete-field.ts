import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { fieldKeys } from './query-keys';

/** DELETE fields/{id}: refused with 409 errors.hasChildren while plants remain. */
export async function deleteField(id: number): Promise<void> {
  await api.delete<unknown>(`fields/${id}`);
}

/** Deletes a field and refreshes the field lists. */
export const useDeleteField = () => useDeleteMutation(deleteField, fieldKeys.all);
