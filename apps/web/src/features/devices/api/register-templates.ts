import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  registerTemplateApplyAnswer,
  registerTemplateCheckAnswer,
  registerTemplateEntry,
  registerTemplatesAnswer,
  type CompanyRegisterTemplateBody,
  type RegisterTemplateApplyAnswer,
  type RegisterTemplateApplyBody,
  type RegisterTemplateCheckAnswer,
  type RegisterTemplateEntry,
  type RegisterTemplatesAnswer,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useDeleteMutation, useSaveMutation } from '../../../lib/mutations';
import { signalKeys } from '../../signals';
import { deviceKeys } from './query-keys';

/** GET register-templates: the shipped templates and the company's own. */
export async function getRegisterTemplates(): Promise<RegisterTemplatesAnswer> {
  return registerTemplatesAnswer.parse(await api.get<unknown>('register-templates'));
}

export const registerTemplatesQueryOptions = () =>
  queryOptions({ queryKey: deviceKeys.registerTemplates, queryFn: getRegisterTemplates });

export const useRegisterTemplates = (enabled = true) =>
  useQuery({ ...registerTemplatesQueryOptions(), enabled });

/**
 * POST register-templates (id 0: create or import the file; the administrator names the company) or
 * PUT register-templates/{id}.
 */
export async function saveRegisterTemplate({
  id,
  body,
}: {
  id: number;
  body: { template: CompanyRegisterTemplateBody; company_id: number | undefined };
}): Promise<RegisterTemplateEntry> {
  const query = body.company_id === undefined ? '' : `?company_id=${body.company_id}`;
  const answer =
    id === 0
      ? await api.post<unknown>(`register-templates${query}`, body.template)
      : await api.put<unknown>(`register-templates/${id}`, body.template);
  return registerTemplateEntry.parse(answer);
}

export const useSaveRegisterTemplate = () =>
  useSaveMutation(saveRegisterTemplate, deviceKeys.registerTemplates);

export const useDeleteRegisterTemplate = () =>
  useDeleteMutation((id: number) => api.delete(`register-templates/${id}`), deviceKeys.registerTemplates);

/** POST devices/{id}/register-template: creates the template's signals on the device. */
export async function applyRegisterTemplate({
  deviceId,
  body,
}: {
  deviceId: number;
  body: RegisterTemplateApplyBody;
}): Promise<RegisterTemplateApplyAnswer> {
  return registerTemplateApplyAnswer.parse(
    await api.post<unknown>(`devices/${deviceId}/register-template`, body),
  );
}

export function useApplyRegisterTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: applyRegisterTemplate,
    onSuccess: () => void client.invalidateQueries({ queryKey: signalKeys.all }),
  });
}

/** POST devices/{id}/register-template/check: each mapped register read once from the device. */
export async function checkRegisterTemplate({
  deviceId,
  body,
}: {
  deviceId: number;
  body: RegisterTemplateApplyBody;
}): Promise<RegisterTemplateCheckAnswer> {
  return registerTemplateCheckAnswer.parse(
    await api.post<unknown>(`devices/${deviceId}/register-template/check`, body),
  );
}

export const useCheckRegisterTemplate = () => useMutation({ mutationFn: checkRegisterTemplate });
