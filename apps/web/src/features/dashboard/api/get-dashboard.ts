import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardLayoutAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dashboardKeys } from './query-keys';

/** GET users/dashboard: the user's saved layout as stored (`data` null when none was saved). */
export async function getDashboard(signal?: AbortSignal): Promise<unknown> {
  return dashboardLayoutAnswer.parse(await api.get<unknown>('users/dashboard', { signal })).data ?? null;
}

/** The saved layout; read once when the page opens (only this page changes it). */
export const dashboardQueryOptions = () =>
  queryOptions({ queryKey: dashboardKeys.layout(), queryFn: ({ signal }) => getDashboard(signal) });

/** Hook of dashboardQueryOptions. */
export const useSavedDashboard = () => useQuery(dashboardQueryOptions());
