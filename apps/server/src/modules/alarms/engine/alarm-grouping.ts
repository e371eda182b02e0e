/**
 * Alarms of one event, pure: which alarm a newly raised one follows (docs/architecture.md, "Alarm
 * groups"). A grid disconnection that also trips an inverter raises several alarms at once; the one that
 * came first on the device above (or a grid alarm on the same device) is their cause, and the others are
 * shown under it and covered by its fault.
 */
import type { AlarmSource } from '@solar/shared';
import { MSG } from './device-codes';

/** How long after a cause an alarm may still follow from it: long enough for devices polled every 30-60 s. */
export const ALARM_GROUP_WINDOW_MS = 120_000;

/**
 * Alarms about the grid at the connection point, which an inverter reports when the grid goes, not when
 * it fails itself (SunSpec Evt1 grid bits; the meter's grid outage). On one device they come before the
 * device's own faults.
 */
const GRID_MESSAGES: ReadonlySet<string> = new Set([
  MSG.gridOutage,
  'alarms.msg.gridDisconnect',
  'alarms.msg.acDisconnect',
  'alarms.msg.overFrequency',
  'alarms.msg.underFrequency',
  'alarms.msg.acOverVoltage',
  'alarms.msg.acUnderVoltage',
]);

/** What grouping reads of an alarm. */
export interface GroupableAlarm {
  id: number;
  device_id: number | null;
  source: AlarmSource;
  message: string;
  /** Epoch ms. */
  started_at: number;
  cause_alarm_id: number | null;
}

const gridRank = (a: GroupableAlarm) => (GRID_MESSAGES.has(a.message) ? 1 : 0);

/** The devices above `deviceId`, nearest first (a loop in bad data ends the walk). */
function ancestorsOf(deviceId: number, upstream: ReadonlyMap<number, number | null>): number[] {
  const out: number[] = [];
  const seen = new Set([deviceId]);
  for (let d = upstream.get(deviceId) ?? null; d !== null && !seen.has(d); d = upstream.get(d) ?? null) {
    out.push(d);
    seen.add(d);
  }
  return out;
}

/** On one device, `c` may be the cause of `a`: a grid alarm before a device one, else the earlier. */
function precedesOnDevice(c: GroupableAlarm, a: GroupableAlarm): boolean {
  if (gridRank(c) !== gridRank(a)) return gridRank(c) > gridRank(a);
  return c.started_at < a.started_at || (c.started_at === a.started_at && c.id < a.id);
}

/**
 * The cause of each raised alarm that has one, by alarm id. `active` are the alarms active now (those
 * raised included or not); `upstream` maps each device to the one above it (topology's upstreamDevices).
 *
 * A cause is active, is no consequence itself (groups are one level deep), started at most `windowMs`
 * before the alarm (or with it) and sits on a device above the alarm's or on the same device. Preferred:
 * a device above over the same device (a communication loss above causes nothing below: a meter that
 * stops answering trips no inverter), then a grid alarm over a device one, then the earliest. Raised alarms
 * are judged in time order, devices above first, so a chosen cause never becomes a consequence later.
 */
export function assignCauses(
  raised: readonly GroupableAlarm[],
  active: readonly GroupableAlarm[],
  upstream: ReadonlyMap<number, number | null>,
  windowMs = ALARM_GROUP_WINDOW_MS,
): Map<number, number> {
  const pool = new Map<number, GroupableAlarm>();
  for (const a of [...active, ...raised]) pool.set(a.id, { ...a });
  const depth = (a: GroupableAlarm) => (a.device_id === null ? 0 : ancestorsOf(a.device_id, upstream).length);
  const order = [...raised].sort(
    (a, b) => a.started_at - b.started_at || depth(a) - depth(b) || gridRank(b) - gridRank(a) || a.id - b.id,
  );
  const causes = new Map<number, number>();
  for (const r of order) {
    const a = pool.get(r.id)!;
    if (a.device_id === null || a.cause_alarm_id !== null) continue;
    const above = ancestorsOf(a.device_id, upstream);
    let best: { alarm: GroupableAlarm; fromAbove: boolean } | null = null;
    for (const c of pool.values()) {
      if (c.id === a.id || c.device_id === null || c.cause_alarm_id !== null) continue;
      if (c.started_at > a.started_at || a.started_at - c.started_at > windowMs) continue;
      const fromAbove = above.includes(c.device_id) && c.source !== 'comm_loss';
      if (!fromAbove && !(c.device_id === a.device_id && precedesOnDevice(c, a))) continue;
      if (!best || better({ alarm: c, fromAbove }, best)) best = { alarm: c, fromAbove };
    }
    if (best) {
      a.cause_alarm_id = best.alarm.id;
      causes.set(a.id, best.alarm.id);
    }
  }
  return causes;
}

/** Of two possible causes: from a device above, then a grid alarm, then the earliest, then the lower id. */
function better(
  x: { alarm: GroupableAlarm; fromAbove: boolean },
  y: { alarm: GroupableAlarm; fromAbove: boolean },
): boolean {
  if (x.fromAbove !== y.fromAbove) return x.fromAbove;
  if (gridRank(x.alarm) !== gridRank(y.alarm)) return gridRank(x.alarm) > gridRank(y.alarm);
  if (x.alarm.started_at !== y.alarm.started_at) return x.alarm.started_at < y.alarm.started_at;
  return x.alarm.id < y.alarm.id;
}
