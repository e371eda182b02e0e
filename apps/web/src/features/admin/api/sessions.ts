import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminSessionList,
  revokeSessionsAnswer,
  type AdminSessionList,
  type RevokeSessionsAnswer,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';

/** GET admin/sessions: the live sessions of every user (administrator only). */
export async function getSessions(): Promise<AdminSessionList> {
  return adminSessionList.parse(await api.get<unknown>('admin/sessions'));
}

/** Refreshed every minute while the tab is open: last seen moves at most once a minute. */
export const useSessions = () =>
  useQuery({ queryKey: adminKeys.sessions(), queryFn: getSessions, refetchInterval: 60_000 });

/** POST admin/users/{id}/revoke-sessions: the user's tokens and live streams end at once. */
export async function revokeSessions(userId: number): Promise<RevokeSessionsAnswer> {
  return revokeSessionsAnswer.parse(await api.post<unknown>(`admin/users/${userId}/revoke-sessions`));
}

export function useRevokeSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeSessions,
    onSuccess: () => void client.invalidateQueries({ queryKey: adminKeys.sessions() }),
  });
}
