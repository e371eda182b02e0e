import { useQuery } from '@tanstack/react-query';
import {
  customAlarmList,
  customAlarmSchema,
  telemetryCatalogAnswer,
  type CustomAlarm,
  type CustomAlarmBody,
} from '@solar/shared';
import { api } from '../../../lib/api-client';
import { useDeleteMutation, useSaveMutation } from '../../../lib/mutations';

/** GET alarms/custom: every custom rule in reach. */
export async function getCustomAlarms(): Promise<CustomAlarm[]> {
  return customAlarmList.parse(await api.get<unknown>('alarms/custom'));
}

/** The rule table's query. */
export function useCustomAlarms() {
  return useQuery({ queryKey: ['custom-alarms', 'list'], queryFn: getCustomAlarms });
}

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
export const useSaveCustomAlarm = () => useSaveMutation(saveCustomAlarm, ['custom-alarms']);

/** DELETE alarms/custom/{id}. */
export async function deleteCustomAlarm(id: number): Promise<void> {
  await api.delete<unknown>(`alarms/custom/${id}`);
}

/** Deletes a rule and refreshes the rule list. */
export const useDeleteCustomAlarm = () => useDeleteMutation(deleteCustomAlarm, ['custom-alarms']);

/** GET telemetry/catalog: the reachable active plants, for the tag picker. */
export function useRulePlants() {
  return useQuery({
    queryKey: ['custom-alarms', 'catalog'],
    queryFn: async () => telemetryCatalogAnswer.parse(await api.get<unknown>('telemetry/catalog')).plants,
  });
}

/** GET telemetry/catalog?plant_id=: the plant's active devices with their signals, for the tag picker. */
export function useRulePlantDevices(plantId: number | null | undefined) {
  return useQuery({
    queryKey: ['custom-alarms', 'catalog', plantId ?? null],
    queryFn: async () =>
      telemetryCatalogAnswer.parse(await api.get<unknown>(`telemetry/catalog?plant_id=${plantId}`)).devices ??
      [],
    enabled: !!plantId,
  });
}

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
