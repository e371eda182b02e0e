import { faultDetailSchema, type FaultBody, type FaultDetail } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { faultKeys } from './query-keys';

/** POST faults/{id}: id 0 creates a fault by hand, any other id updates the whole record. */
export async function saveFault({ id, body }: { id: number; body: FaultBody }): Promise<FaultDetail> {
  return faultDetailSchema.parse(await api.post<unknown>(`faults/${id}`, body));
}

/** Saves a fault and refreshes the fault lists and details. */
export const useSaveFault = () => useSaveMutation(saveFault, faultKeys.all);
