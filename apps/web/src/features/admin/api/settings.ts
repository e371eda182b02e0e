import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  publicSettingsAnswer,
  systemSettingsAnswer,
  testMailAnswer,
  type PublicSettings,
  type SystemSettings,
  type SystemSettingsBody,
  type TestMailAnswer,
  type TestMailBody,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';

/** GET admin/settings: the settings in force (administrator only). */
export async function getSettings(): Promise<SystemSettings> {
  return systemSettingsAnswer.parse(await api.get<unknown>('admin/settings'));
}

export const settingsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.settings(), queryFn: getSettings });

/** Hook of settingsQueryOptions; idle while `enabled` is false. */
export const useSettings = (enabled = true) => useQuery({ ...settingsQueryOptions(), enabled });

/** POST admin/settings: saves every setting; the public settings (site name, language) refresh too. */
export async function saveSettings(body: SystemSettingsBody): Promise<SystemSettings> {
  return systemSettingsAnswer.parse(await api.post<unknown>('admin/settings', body));
}

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => {
      client.setQueryData(adminKeys.settings(), saved);
      void client.invalidateQueries({ queryKey: adminKeys.publicSettings() });
    },
  });
}

/** POST admin/settings/test-mail. */
export async function sendTestMail(body: TestMailBody): Promise<TestMailAnswer> {
  return testMailAnswer.parse(await api.post<unknown>('admin/settings/test-mail', body));
}

export const useSendTestMail = () => useMutation({ mutationFn: sendTestMail });

/** GET settings/public (no sign-in): the site name and the default language. */
export async function getPublicSettings(): Promise<PublicSettings> {
  return publicSettingsAnswer.parse(await api.get<unknown>('settings/public'));
}

/** The header's site name and logo and the default language; refetched when the admin saves. */
export const usePublicSettings = () =>
  useQuery({ queryKey: adminKeys.publicSettings(), queryFn: getPublicSettings, staleTime: 60_000 });
