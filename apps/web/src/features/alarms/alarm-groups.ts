import type { AlarmRecord } from '@solar/shared';

/** A row of an alarm list: an alarm with the alarms of its event that followed it (a table's tree data). */
export type AlarmRow = AlarmRecord & { children?: AlarmRecord[] };

/**
 * The alarms with each consequence put under its cause when both are listed (docs/architecture.md,
 * "Alarm groups"); a consequence whose cause is not in the list stands on its own. One derivation for
 * /alarms, the plant page and the device page.
 */
export function nestUnderCauses(alarms: readonly AlarmRecord[]): AlarmRow[] {
  const listed = new Set(alarms.map((a) => a.id));
  const nested = (a: AlarmRecord) => a.cause_alarm_id !== null && listed.has(a.cause_alarm_id);
  const under = new Map<number, AlarmRecord[]>();
  for (const a of alarms) {
    if (!nested(a)) continue;
    const list = under.get(a.cause_alarm_id!) ?? [];
    list.push(a);
    under.set(a.cause_alarm_id!, list);
  }
  return alarms
    .filter((a) => !nested(a))
    .map((a) => (under.has(a.id) ? { ...a, children: under.get(a.id)! } : a));
}
