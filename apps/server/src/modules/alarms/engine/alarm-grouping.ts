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
  /**
   * True once an operator approved (into a fault) or rejected it or an alarm that follows it: the group
   * then keeps its place, under no later cause.
   */
  decided: boolean;
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

/** A possible cause of an alarm, and whether it sits on a device above the alarm's. */
interface Candidate {
  alarm: GroupableAlarm;
  fromAbove: boolean;
}

/**
 * Whether `c` may be the cause of `a`, and how: from a device above within `windowMs` of it, before or
 * after (devices polled apart report one event out of order: the meter may see the grid go after the
 * inverter reported its trip), or on the same device at most `windowMs` before it (one device reports in
 * order). A communication loss above causes nothing below: a meter that stops answering trips no inverter.
 */
function asCause(
  c: GroupableAlarm,
  a: GroupableAlarm,
  above: readonly number[],
  windowMs: number,
): Candidate | null {
  if (c.id === a.id || c.device_id === null || a.device_id === null) return null;
  if (above.includes(c.device_id))
    return c.source !== 'comm_loss' && Math.abs(a.started_at - c.started_at) <= windowMs
      ? { alarm: c, fromAbove: true }
      : null;
  const onDevice =
    c.device_id === a.device_id &&
    c.started_at <= a.started_at &&
    a.started_at - c.started_at <= windowMs &&
    precedesOnDevice(c, a);
  return onDevice ? { alarm: c, fromAbove: false } : null;
}

/** The causes found when alarms are raised (consequence id → cause id). */
export interface GroupLinks {
  /** Of the alarms raised. */
  ofRaised: Map<number, number>;
  /** Of alarms raised before their cause: each goes under it with the alarms that followed it. */
  ofEarlier: Map<number, number>;
}

/**
 * The causes of alarms just raised, and of earlier ones they cause. `active` are the alarms active now
 * (those raised included or not); `upstream` maps each device to the one above it (topology's
 * upstreamDevices). Groups are one level deep: a cause is no consequence, a consequence no cause.
 *
 * Each raised alarm first looks for its cause among the active alarms that are no consequence (asCause):
 * preferred, a device above over the same device, then a grid alarm over a device one, then the earliest.
 * A raised alarm that found none then takes under it the earlier active alarms it may cause that follow
 * nothing and are undecided, they and the alarms that follow them (an alarm approved into a fault or
 * rejected keeps its place, and so does its group). Each such alarm goes to the best raised alarm that may
 * cause it, by the same preference, and the alarms that followed it go with it, one level deep. Raised
 * alarms are judged devices above first, then in time order, so a chosen cause never becomes a
 * consequence later.
 */
export function assignCauses(
  raised: readonly GroupableAlarm[],
  active: readonly GroupableAlarm[],
  upstream: ReadonlyMap<number, number | null>,
  windowMs = ALARM_GROUP_WINDOW_MS,
): GroupLinks {
  const pool = new Map<number, GroupableAlarm>();
  for (const a of [...active, ...raised]) pool.set(a.id, { ...a });
  const aboveOf = (a: GroupableAlarm) => (a.device_id === null ? [] : ancestorsOf(a.device_id, upstream));
  const raisedIds = new Set(raised.map((r) => r.id));
  const order = [...raisedIds]
    .map((id) => pool.get(id)!)
    .sort(
      (a, b) =>
        aboveOf(a).length - aboveOf(b).length ||
        a.started_at - b.started_at ||
        gridRank(b) - gridRank(a) ||
        a.id - b.id,
    );
  const bestCause = (a: GroupableAlarm, causes: Iterable<GroupableAlarm>) => {
    const above = aboveOf(a);
    let best: Candidate | null = null;
    for (const c of causes) {
      if (c.cause_alarm_id !== null) continue;
      const candidate = asCause(c, a, above, windowMs);
      if (candidate && (!best || better(candidate, best))) best = candidate;
    }
    return best?.alarm ?? null;
  };
  const links: GroupLinks = { ofRaised: new Map(), ofEarlier: new Map() };
  for (const a of order) {
    const cause = a.cause_alarm_id === null ? bestCause(a, pool.values()) : null;
    if (!cause) continue;
    a.cause_alarm_id = cause.id;
    links.ofRaised.set(a.id, cause.id);
  }
  const causesNow = order.filter((r) => r.device_id !== null && r.cause_alarm_id === null);
  for (const a of pool.values()) {
    if (raisedIds.has(a.id) || a.cause_alarm_id !== null || a.decided) continue;
    const cause = bestCause(a, causesNow);
    if (!cause) continue;
    // Its followers move with it (the writer moves those not active too); a raised one's link is its new cause.
    for (const follower of pool.values()) {
      if (follower.cause_alarm_id !== a.id) continue;
      follower.cause_alarm_id = cause.id;
      if (raisedIds.has(follower.id)) links.ofRaised.set(follower.id, cause.id);
    }
    a.cause_alarm_id = cause.id;
    links.ofEarlier.set(a.id, cause.id);
  }
  return links;
}

/** Of two possible causes: from a device above, then a grid alarm, then the earliest, then the lower id. */
function better(x: Candidate, y: Candidate): boolean {
  if (x.fromAbove !== y.fromAbove) return x.fromAbove;
  if (gridRank(x.alarm) !== gridRank(y.alarm)) return gridRank(x.alarm) > gridRank(y.alarm);
  if (x.alarm.started_at !== y.alarm.started_at) return x.alarm.started_at < y.alarm.started_at;
  return x.alarm.id < y.alarm.id;
}
