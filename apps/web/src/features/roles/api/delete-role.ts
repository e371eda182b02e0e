import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { roleKeys } from './query-keys';

/** DELETE roles/{id}: refused with 409 while users hold the role, and always for the admin role. */
export async function deleteRole(id: number): Promise<void> {
  await api.delete<unknown>(`roles/${id}`);
}

/** Deletes a role and refreshes the role lists. */
export const useDeleteRole = () => useDeleteMutation(deleteRole, roleKeys.all);
