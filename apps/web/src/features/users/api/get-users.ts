import { queryOptions, useQuery } from '@tanstack/react-query';
import { userListSchema, type User } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { userKeys } from './query-keys';

/** GET Users: every user the caller may see, as a plain list (paged and filtered on the client). */
export async function getUsers(): Promise<User[]> {
  return userListSchema.parse(await api.get<unknown>('Users'));
}

/** The users table's query. */
export const usersQueryOptions = () => queryOptions({ queryKey: userKeys.list(), queryFn: getUsers });

/** Hook of usersQueryOptions. */
export const useUsers = () => useQuery(usersQueryOptions());
