import { queryOptions, useQuery } from '@tanstack/react-query';
import { roleList, type Role } from '@solar/shared';
import { fetchOptionList } from '../../../lib/lookups';
import { roleKeys } from './query-keys';

/** Roles, for the user form's select (needs role_management view). */
export const roleOptionsQueryOptions = () =>
  queryOptions({
    queryKey: roleKeys.options(),
    queryFn: () => fetchOptionList<Role>('roles', roleList, {}),
  });

/** Hook of roleOptionsQueryOptions; idle while `enabled` is false. */
export const useRoleOptions = (enabled = true) => useQuery({ ...roleOptionsQueryOptions(), enabled });
