import { useQuery } from '@tanstack/react-query';
import {
  PAGE_SIZE_MAX,
  companyList,
  deviceList,
  fieldList,
  plantList,
  roleList,
  type Company,
  type Device,
  type Field,
  type Plant,
  type Role,
} from '@solar/shared';
import { api } from './api-client';
import { withQuery, type QueryValue } from './list-query';

/**
 * Option lists for the parent selects of the management forms (a field's company, a plant's field…),
 * shared by several features: the first PAGE_SIZE_MAX records by name, narrowed by the given filters.
 */
async function lookup<T>(
  path: string,
  schema: { parse: (v: unknown) => { items: T[] } },
  filters: Record<string, QueryValue>,
): Promise<T[]> {
  const answer = await api.get<unknown>(
    withQuery(path, { ...filters, page: 1, pageSize: PAGE_SIZE_MAX, sort: 'name' }),
  );
  return schema.parse(answer).items;
}

/** Companies the user reaches (needs company_management view). */
export function useCompanyOptions(enabled = true) {
  return useQuery({
    queryKey: ['companies', 'options'],
    queryFn: () => lookup<Company>('companies', companyList, {}),
    enabled,
  });
}

/** Fields, optionally of one company (needs field_management view). */
export function useFieldOptions(companyId: number | null | undefined, enabled = true) {
  return useQuery({
    queryKey: ['fields', 'options', companyId ?? null],
    queryFn: () => lookup<Field>('fields', fieldList, { company_id: companyId }),
    enabled,
  });
}

/** Plants, optionally of one field or company (needs plant_management view). */
export function usePlantOptions(
  filter: { fieldId?: number | null; companyId?: number | null },
  enabled = true,
) {
  return useQuery({
    queryKey: ['plants', 'options', filter.fieldId ?? null, filter.companyId ?? null],
    queryFn: () =>
      lookup<Plant>('plants', plantList, { field_id: filter.fieldId, company_id: filter.companyId }),
    enabled,
  });
}

/** Devices of one plant (needs device_management view); nothing until a plant is chosen. */
export function useDeviceOptions(plantId: number | null | undefined, enabled = true) {
  return useQuery({
    queryKey: ['devices', 'options', plantId ?? null],
    queryFn: () => lookup<Device>('devices', deviceList, { plant_id: plantId }),
    enabled: enabled && !!plantId,
  });
}

/** Roles (needs role_management view). */
export function useRoleOptions(enabled = true) {
  return useQuery({
    queryKey: ['roles', 'options'],
    queryFn: () => lookup<Role>('roles', roleList, {}),
    enabled,
  });
}

/** `{ value: id, label: name }` options of records. */
export const toOptions = (records: readonly { id: number; name: string }[] | undefined) =>
  (records ?? []).map((r) => ({ value: r.id, label: r.name }));
