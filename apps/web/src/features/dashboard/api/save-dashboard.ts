import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dashboardKeys } from './query-keys';

/** POST users/dashboard ({ data }): replaces the user's layout; the client toasts the result (spec §8). */
export async function saveDashboard(data: unknown): Promise<void> {
  await api.post<unknown>('users/dashboard', { data });
}

/** Saves the layout and keeps the cached one equal to what was saved. */
export function useSaveDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveDashboard,
    onSuccess: (_, data) => client.setQueryData(dashboardKeys.layout(), data),
  });
}
