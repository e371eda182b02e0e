import { companySchema, type Company, type CompanyBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { companyKeys } from './query-keys';

/** POST companies/{id}: id 0 creates, any other id updates. */
export async function saveCompany({ id, body }: { id: number; body: CompanyBody }): Promise<Company> {
  return companySchema.parse(await api.post<unknown>(`companies/${id}`, body));
}

/** Saves a company and refreshes the company lists. */
export const useSaveCompany = () => useSaveMutation(saveCompany, companyKeys.all);
