import { plantSchema, type Plant, type PlantBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { plantKeys } from './query-keys';

/** POST plants/{id}: id 0 creates, any other id updates. */
export async function savePlant({ id, body }: { id: number; body: PlantBody }): Promise<Plant> {
  return plantSchema.parse(await api.post<unknown>(`plants/${id}`, body));
}

/** Saves a plant and refreshes the plant lists. */
export const useSavePlant = () => useSaveMutation(savePlant, plantKeys.all);
