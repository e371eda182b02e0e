import { roleSchema, type Role, type RoleBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { roleKeys } from './query-keys';

/** POST roles/{id}: id 0 creates, any other id updates (admin only; a taken name answers 409). */
export async function saveRole({ id, body }: { id: number; body: RoleBody }): Promise<Role> {
  return roleSchema.parse(await api.post<unknown>(`roles/${id}`, body));
}

/** Saves a role and refreshes the role lists. */
export const useSaveRole = () => useSaveMutation(saveRole, roleKeys.all);
