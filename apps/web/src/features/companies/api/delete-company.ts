import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { companyKeys } from './query-keys';

/** DELETE companies/{id}: refused with 409 errors.hasChildren while fields or users remain. */
export async function deleteCompany(id: number): Promise<void> {
  await api.delete<unknown>(`companies/${id}`);
}

/** Deletes a company and refreshes the company lists. */
export const useDeleteCompany = () => useDeleteMutation(deleteCompany, companyKeys.all);
