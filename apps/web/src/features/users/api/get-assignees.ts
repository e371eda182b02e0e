import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUsers } from './get-users';
import { userKeys } from './query-keys';

/** A user who may be given a fault: id, full name and company. */
export interface Assignee {
  id: number;
  name: string;
  company_id: number | null;
}

/** Active users who may be assigned (GET Users needs user_management view). */
export const assigneesQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.assignees(),
    queryFn: async (): Promise<Assignee[]> =>
      (await getUsers())
        .filter((u) => u.is_active)
        .map((u) => ({ id: u.id, name: `${u.name} ${u.surname}`.trim(), company_id: u.company_id })),
  });

/** Hook of assigneesQueryOptions; idle while `enabled` is false. */
export const useAssignees = (enabled: boolean) => useQuery({ ...assigneesQueryOptions(), enabled });
