import { queryOptions, useQuery } from '@tanstack/react-query';
import { companyList, type Company } from '@solar/shared';
import { fetchOptionList } from '../../../lib/lookups';
import { companyKeys } from './query-keys';

/** The companies the user reaches, for parent selects (needs company_management view). */
export const companyOptionsQueryOptions = () =>
  queryOptions({
    queryKey: companyKeys.options(),
    queryFn: () => fetchOptionList<Company>('companies', companyList, {}),
  });

/** Hook of companyOptionsQueryOptions; idle while `enabled` is false. */
export const useCompanyOptions = (enabled = true) => useQuery({ ...companyOptionsQueryOptions(), enabled });
