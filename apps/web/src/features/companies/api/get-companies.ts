import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { companyList, type CompanyList, type CompanyListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { companyKeys } from './query-keys';

/** GET companies: one page of companies, searched, filtered and sorted by the server. */
export async function getCompanies(query: CompanyListQuery): Promise<CompanyList> {
  return companyList.parse(await api.get<unknown>(withQuery('companies', query)));
}

/** The companies table's query; the previous page stays on screen while the next loads. */
export const companiesQueryOptions = (query: CompanyListQuery) =>
  queryOptions({
    queryKey: companyKeys.list(query),
    queryFn: () => getCompanies(query),
    placeholderData: keepPreviousData,
  });

/** Hook of companiesQueryOptions. */
export const useCompanies = (query: CompanyListQuery) => useQuery(companiesQueryOptions(query));
