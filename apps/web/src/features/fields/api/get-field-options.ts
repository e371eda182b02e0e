import { queryOptions, useQuery } from '@tanstack/react-query';
import { fieldList, type Field } from '@solar/shared';
import { fetchOptionList } from '../../../lib/lookups';
import { fieldKeys } from './query-keys';

/** Fields, optionally of one company, for parent selects (needs field_management view). */
export const fieldOptionsQueryOptions = (companyId: number | null | undefined) =>
  queryOptions({
    queryKey: fieldKeys.options(companyId ?? null),
    queryFn: () => fetchOptionList<Field>('fields', fieldList, { company_id: companyId }),
  });

/** Hook of fieldOptionsQueryOptions; idle while `enabled` is false. */
export const useFieldOptions = (companyId: number | null | undefined, enabled = true) =>
  useQuery({ ...fieldOptionsQueryOptions(companyId), enabled });
