import { signalSchema, type Signal, type SignalBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { signalKeys } from './query-keys';

/** POST signals/{id}: id 0 creates, any other id updates; a key taken on the device answers 409. */
export async function saveSignal({ id, body }: { id: number; body: SignalBody }): Promise<Signal> {
  return signalSchema.parse(await api.post<unknown>(`signals/${id}`, body));
}

/** Saves a signal and refreshes the signal lists. */
export const useSaveSignal = () => useSaveMutation(saveSignal, signalKeys.all);
