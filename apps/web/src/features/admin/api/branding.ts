import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  co2FactorItem,
  co2FactorList,
  logoAnswer,
  type Co2FactorBody,
  type Co2FactorItem,
  type Co2FactorList,
  type LogoAnswer,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';

/** A file's bytes as base64 (what POST admin/settings/logo takes), in chunks to spare the call stack. */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** POST admin/settings/logo: the server checks the type by the bytes and the size. */
export async function uploadLogo(file: Blob): Promise<LogoAnswer> {
  const body = { content_base64: await base64Of(file) };
  return logoAnswer.parse(await api.post<unknown>('admin/settings/logo', body));
}

/** DELETE admin/settings/logo. */
export async function removeLogo(): Promise<void> {
  await api.delete<unknown>('admin/settings/logo');
}

/** Upload and removal refresh the public settings: the header and this page show the change at once. */
function useLogoMutation<TArg, TAnswer>(fn: (arg: TArg) => Promise<TAnswer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void client.invalidateQueries({ queryKey: adminKeys.publicSettings() }),
  });
}

export const useUploadLogo = () => useLogoMutation(uploadLogo);
export const useRemoveLogo = () => useLogoMutation(removeLogo);

/** GET admin/co2-factors: built-in factors and the admin's overrides. */
export async function getCo2Factors(): Promise<Co2FactorList> {
  return co2FactorList.parse(await api.get<unknown>('admin/co2-factors'));
}

export const co2FactorsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.co2Factors(), queryFn: getCo2Factors });

export const useCo2Factors = () => useQuery(co2FactorsQueryOptions());

/** POST admin/co2-factors/{country}. */
export async function saveCo2Factor({
  country,
  body,
}: {
  country: string;
  body: Co2FactorBody;
}): Promise<Co2FactorItem> {
  return co2FactorItem.parse(
    await api.post<unknown>(`admin/co2-factors/${encodeURIComponent(country)}`, body),
  );
}

/** DELETE admin/co2-factors/{country}: the built-in factor applies again. */
export async function removeCo2Factor(country: string): Promise<void> {
  await api.delete<unknown>(`admin/co2-factors/${encodeURIComponent(country)}`);
}

function useCo2Mutation<TArg, TAnswer>(fn: (arg: TArg) => Promise<TAnswer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void client.invalidateQueries({ queryKey: adminKeys.co2Factors() }),
  });
}

export const useSaveCo2Factor = () => useCo2Mutation(saveCo2Factor);
export const useRemoveCo2Factor = () => useCo2Mutation(removeCo2Factor);
