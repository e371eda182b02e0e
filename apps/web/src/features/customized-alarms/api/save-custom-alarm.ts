import { customAlarmSchema, type CustomAlarm, type CustomAlarmBody } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useSaveMutation } from '../../../lib/mutations';
import { customAlarmKeys } from './query-keys';

/** POST alarms/custom/{id}: id 0 creates a rule, any other id updates it. */
export async function saveCustomAlarm({
  id,
  body,
}: {
  id: number;
  body: CustomAlarmBody;
}): Promise<CustomAlarm> {
  return customAlarmSchema.parse(await api.post<unknown>(`alarms/custom/${id}`, body));
}

/** Saves a rule and refreshes the rule list. */
export const useSaveCustomAlarm = () => useSaveMutation(saveCustomAlarm, customAlarmKeys.all);

/** The body of a rule as it stands, for a save that changes only some fields (the is_active toggle). */
export const bodyOf = (rule: CustomAlarm): CustomAlarmBody => ({
  name: rule.name,
  description: rule.description,
  priority_id: rule.priority_id,
  tag_id: rule.tag_id,
  operant: rule.operant,
  value: rule.value,
  started_at: rule.started_at,
  end_at: rule.end_at,
  is_active: rule.is_active,
  on_delay_s: rule.on_delay_s,
  off_delay_s: rule.off_delay_s,
  hysteresis: rule.hysteresis,
});
