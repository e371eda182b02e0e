import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { companyList, type CompanyList, type CompanyListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';

/** GET companies: one page of companies, searched, filtered and sorted by the server. */
export async function getCompanies(query: CompanyListQuery): Promise<CompanyList> {
  return companyList.parse(await api.get<unknown>(withQuery('companies', query)));
}

/** The companies table's query; the previous page stays on screen while the next loads. */
export function useCompanies(query: CompanyListQuery) {
  return useQuery({
    queryKey: ['companies', 'list', query],
    queryFn: () => getCompanies(query),
    placeholderData: keepPreviousData,
  });
}
