import { userSchema, type User, type UserUpsertBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { userKeys } from './query-keys';

/** POST users/{id}: id 0 creates (with a password), any other id updates. */
export async function saveUser({ id, body }: { id: number; body: UserUpsertBody }): Promise<User> {
  return userSchema.parse(await api.post<unknown>(`users/${id}`, body));
}

/** Saves a user and refreshes the user list. */
export const useSaveUser = () => useSaveMutation(saveUser, userKeys.all);
