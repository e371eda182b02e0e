import { api } from '../../../lib/api-client';
import { useDeleteMutation } from '../../../lib/mutations';
import { customAlarmKeys } from './query-keys';

/** DELETE alarms/custom/{id}. */
export async function deleteCustomAlarm(id: number): Promise<void> {
  await api.delete<unknown>(`alarms/custom/${id}`);
}

/** Deletes a rule and refreshes the rule list. */
export const useDeleteCustomAlarm = () => useDeleteMutation(deleteCustomAlarm, customAlarmKeys.all);
