import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { roleList, type RoleList, type RoleListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { roleKeys } from './query-keys';

/** GET roles: one page of roles, searched and sorted by the server. */
export async function getRoles(query: RoleListQuery): Promise<RoleList> {
  return roleList.parse(await api.get<unknown>(withQuery('roles', query)));
}

/** The roles table's query; the previous page stays on screen while the next loads. */
export const rolesQueryOptions = (query: RoleListQuery) =>
  queryOptions({
    queryKey: roleKeys.list(query),
    queryFn: () => getRoles(query),
    placeholderData: keepPreviousData,
  });

/** Hook of rolesQueryOptions. */
export const useRoles = (query: RoleListQuery) => useQuery(rolesQueryOptions(query));
