import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alarmApproveAnswer, alarmSchema, type AlarmRecord } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { faultKeys } from '../../faults';
import { alarmKeys } from './query-keys';

/** POST alarms/{id}/fault: approves the alarm and converts it to a fault (409 once decided). */
export async function approveAlarm(id: number): Promise<{ alarm: AlarmRecord; fault_id: number }> {
  return alarmApproveAnswer.parse(await api.post<unknown>(`alarms/${id}/fault`));
}

/** POST alarms/{id}/reject: rejects the alarm (409 once decided). */
export async function rejectAlarm(id: number): Promise<AlarmRecord> {
  return alarmSchema.parse(await api.post<unknown>(`alarms/${id}/reject`));
}

/** Approve or reject; afterwards the alarm lists, the header badge and the fault lists are fetched again. */
export function useDecideAlarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'reject' }) =>
      decision === 'approve' ? approveAlarm(id).then((a) => a.alarm) : rejectAlarm(id),
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: alarmKeys.all }),
        client.invalidateQueries({ queryKey: faultKeys.all }),
      ]);
    },
  });
}
