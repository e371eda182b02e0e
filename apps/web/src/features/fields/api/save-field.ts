import { fieldSchema, type Field, type FieldBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { fieldKeys } from './query-keys';

/** POST fields/{id}: id 0 creates, any other id updates. */
export async function saveField({ id, body }: { id: number; body: FieldBody }): Promise<Field> {
  return fieldSchema.parse(await api.post<unknown>(`fields/${id}`, body));
}

/** Saves a field and refreshes the field lists. */
export const useSaveField = () => useSaveMutation(saveField, fieldKeys.all);
