import type { AlarmEvent, AlarmEventKind, AlarmSource, DeviceType } from '@solar/shared';
import { ALARM_STATUS, VENDOR_ALARM_CODES, VENDOR_ALARM_WORDS } from '@solar/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../../db/database';
import type { Database } from '../../../db/schema';
import { iso } from '../../../lib/listing';
import { reachable, type Scope } from '../../../lib/scope';
import { upstreamDevices } from '../../topology';
import { alarmsByIds, chunks } from '../alarms.repository';
import { ALARM_GROUP_WINDOW_MS, assignCauses, type GroupableAlarm } from './alarm-grouping';

/**
 * The engine's repository: raising and clearing alarms, the alarm event log, and what the engine loads at
 * start (rules, signal catalog, communication states). Reads of alarms as answers live in
 * ../alarms.repository.ts; this file depends on that one, never the other way round.
 */

/** What the engine raises. */
export interface RaiseRequest {
  key: string;
  plant_id: number;
  device_id: number | null;
  tag_id: number | null;
  source: AlarmSource;
  rule_id: number | null;
  priority_id: number;
  message: string;
  message_params: Record<string, string | number | null>;
  at: number;
}

export interface WrittenEvent {
  eventId: number;
  alarmId: number;
  kind: AlarmEventKind;
  at: number;
}

/**
 * Raises the alarms whose condition is not already active (the unique `active_key` makes a repeat a
 * no-op), records the cause of each that follows another (alarm-grouping.ts) and logs a `raised` event
 * for each one written. Run inside the caller's transaction.
 */
export async function raiseAlarms(trx: Db, raises: readonly RaiseRequest[]): Promise<WrittenEvent[]> {
  const events: WrittenEvent[] = [];
  const byKey = new Map(raises.map((r) => [r.key, r]));
  const raised: GroupableAlarm[] = [];
  const plantIds = new Set<number>();
  for (const part of chunks(raises)) {
    const rows = await trx
      .insertInto('alarms')
      .values(
        part.map((r) => ({
          plant_id: r.plant_id,
          device_id: r.device_id,
          tag_id: r.tag_id,
          source: r.source,
          rule_id: r.rule_id,
          condition_key: r.key,
          active_key: r.key,
          priority_id: r.priority_id,
          message: r.message,
          message_params: JSON.stringify(r.message_params),
          status_id: ALARM_STATUS.active,
          started_at: r.at,
        })),
      )
      .onConflict((oc) => oc.column('active_key').doNothing())
      .returning(['id', 'started_at', 'active_key'])
      .execute();
    for (const r of rows) {
      const request = byKey.get(r.active_key!)!;
      if (request.device_id !== null) plantIds.add(request.plant_id);
      raised.push({
        id: r.id,
        device_id: request.device_id,
        source: request.source,
        message: request.message,
        started_at: Number(r.started_at),
        cause_alarm_id: null,
        decided: false,
      });
    }
    events.push(
      ...(await logEvents(
        trx,
        rows.map((r) => ({ alarmId: r.id, kind: 'raised', at: Number(r.started_at) })),
      )),
    );
  }
  await recordCauses(trx, raised, plantIds);
  return events;
}

/**
 * Finds and stores the cause of each alarm just raised among the alarms active in its plant, and puts the
 * earlier alarms a raised one causes under it (alarm-grouping.ts), with the plant's wiring from the
 * topology.
 */
async function recordCauses(trx: Db, raised: readonly GroupableAlarm[], plantIds: ReadonlySet<number>) {
  const plants = [...plantIds];
  if (!raised.length || !plants.length) return;
  const starts = raised.map((a) => a.started_at);
  const active = await trx
    .selectFrom('alarms')
    .select((eb) => [
      'alarms.id',
      'alarms.device_id',
      'alarms.source',
      'alarms.message',
      'alarms.started_at',
      'alarms.cause_alarm_id',
      'alarms.status_id',
      'alarms.fault_id',
      eb.exists(decidedFollowerOf(eb)).as('decided_follower'),
    ])
    .where('alarms.plant_id', 'in', plants)
    .where('alarms.cleared_at', 'is', null)
    .where('alarms.device_id', 'is not', null)
    .where('alarms.started_at', '>=', Math.min(...starts) - ALARM_GROUP_WINDOW_MS)
    .where('alarms.started_at', '<=', Math.max(...starts) + ALARM_GROUP_WINDOW_MS)
    .execute();
  const devices = await trx
    .selectFrom('devices')
    .select(['id', 'parent_device_id', 'type'])
    .where('plant_id', 'in', plants)
    .execute();
  const links = assignCauses(
    raised,
    active.map((a) => ({
      id: a.id,
      device_id: a.device_id,
      source: a.source as AlarmSource,
      message: a.message,
      started_at: Number(a.started_at),
      cause_alarm_id: a.cause_alarm_id,
      decided:
        Number(a.status_id) !== ALARM_STATUS.active || a.fault_id !== null || Boolean(a.decided_follower),
    })),
    upstreamDevices(devices.map((d) => ({ ...d, type: d.type as DeviceType }))),
  );
  for (const [id, causeId] of links.ofRaised)
    await trx.updateTable('alarms').set({ cause_alarm_id: causeId }).where('id', '=', id).execute();
  for (const [id, causeId] of links.ofEarlier) await putUnderLaterCause(trx, id, causeId);
}

/** The alarms that follow `alarms` and were approved or rejected. */
const decidedFollowerOf = (eb: ExpressionBuilder<Database, 'alarms'>) =>
  eb
    .selectFrom('alarms as follower')
    .select('follower.id')
    .whereRef('follower.cause_alarm_id', '=', 'alarms.id')
    .where('follower.status_id', 'in', [ALARM_STATUS.approved, ALARM_STATUS.rejected]);

/**
 * Puts an alarm raised before its cause under it, with the alarms that followed it (groups stay one level
 * deep). The statement checks again what the choice read: the alarm is still active, follows nothing and
 * neither it nor a follower was decided. An operator's approval committed meanwhile wins (on PostgreSQL the
 * row's condition is read again after its lock), and a second run changes nothing.
 */
async function putUnderLaterCause(trx: Db, id: number, causeId: number): Promise<void> {
  const moved = await trx
    .updateTable('alarms')
    .set({ cause_alarm_id: causeId })
    .where('id', '=', id)
    .where('cause_alarm_id', 'is', null)
    .where('cleared_at', 'is', null)
    .where('status_id', '=', ALARM_STATUS.active)
    .where('fault_id', 'is', null)
    .where((eb) => eb.not(eb.exists(decidedFollowerOf(eb))))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return;
  await trx.updateTable('alarms').set({ cause_alarm_id: causeId }).where('cause_alarm_id', '=', id).execute();
}

/**
 * Clears the active conditions with these keys at `at`: the key is released (the condition may raise a
 * new alarm later), an alarm still active becomes cleared (4); an approved or rejected one keeps its
 * status and gets its cleared_at. Logs a `cleared` event for each.
 */
export async function clearAlarms(
  trx: Db,
  clears: readonly { key: string; at: number }[],
): Promise<WrittenEvent[]> {
  const events: WrittenEvent[] = [];
  const atOf = new Map(clears.map((c) => [c.key, c.at]));
  for (const part of chunks([...atOf.keys()])) {
    const rows = await trx
      .selectFrom('alarms')
      .select(['id', 'active_key', 'status_id'])
      .where('active_key', 'in', part)
      .execute();
    for (const r of rows) {
      const at = atOf.get(r.active_key!)!;
      await trx
        .updateTable('alarms')
        .set({
          active_key: null,
          cleared_at: at,
          status_id: Number(r.status_id) === ALARM_STATUS.active ? ALARM_STATUS.cleared : Number(r.status_id),
        })
        .where('id', '=', r.id)
        .execute();
    }
    events.push(
      ...(await logEvents(
        trx,
        rows.map((r) => ({ alarmId: r.id, kind: 'cleared', at: atOf.get(r.active_key!)! })),
      )),
    );
  }
  return events;
}

/** Appends to the alarm event log; answers the events with their ids (the listen cursor). */
export async function logEvents(
  trx: Db,
  events: readonly { alarmId: number; kind: AlarmEventKind; at: number }[],
): Promise<WrittenEvent[]> {
  if (!events.length) return [];
  const out: WrittenEvent[] = [];
  for (const part of chunks(events)) {
    const rows = await trx
      .insertInto('alarm_events')
      .values(part.map((e) => ({ alarm_id: e.alarmId, kind: e.kind, at: e.at })))
      .returning(['id', 'alarm_id', 'kind', 'at'])
      .execute();
    for (const r of rows)
      out.push({
        eventId: Number(r.id),
        alarmId: r.alarm_id,
        kind: r.kind as AlarmEventKind,
        at: Number(r.at),
      });
  }
  return out;
}

/** Keys of the conditions active now (the engine's memory after a restart). */
export async function activeConditions(db: Db): Promise<{ id: number; key: string; started_at: number }[]> {
  const rows = await db
    .selectFrom('alarms')
    .select(['id', 'active_key', 'started_at'])
    .where('active_key', 'is not', null)
    .execute();
  return rows.map((r) => ({ id: r.id, key: r.active_key!, started_at: Number(r.started_at) }));
}

/** Events after `cursor` that the scope sees, oldest first, and the cursor to pass next. */
export async function eventsAfter(
  db: Db,
  scope: Scope,
  cursor: number | undefined,
  limit: number,
): Promise<{ cursor: number; events: AlarmEvent[] }> {
  const head = Number(
    (
      await db
        .selectFrom('alarm_events')
        .select((eb) => eb.fn.max('id').as('head'))
        .executeTakeFirst()
    )?.head ?? 0,
  );
  let q = db
    .selectFrom('alarm_events')
    .innerJoin('alarms', 'alarms.id', 'alarm_events.alarm_id')
    .select(['alarm_events.id', 'alarm_events.alarm_id', 'alarm_events.kind', 'alarm_events.at'])
    .where('alarm_events.id', '<=', head);
  if (!scope.all) q = q.where('alarms.plant_id', 'in', reachable.plants(db, scope));
  let rows;
  if (cursor === undefined) {
    // No cursor: the newest events, so a client starting now sees the recent past and gets the head.
    rows = (await q.orderBy('alarm_events.id', 'desc').limit(limit).execute()).reverse();
  } else {
    rows = await q
      .where('alarm_events.id', '>', cursor)
      .orderBy('alarm_events.id', 'asc')
      .limit(limit)
      .execute();
  }
  const alarms = await alarmsByIds(
    db,
    rows.map((r) => r.alarm_id),
  );
  const events: AlarmEvent[] = rows.flatMap((r) => {
    const alarm = alarms.get(r.alarm_id);
    return alarm ? [{ id: Number(r.id), kind: r.kind as AlarmEventKind, at: iso(Number(r.at)), alarm }] : [];
  });
  const next =
    cursor !== undefined && rows.length === limit
      ? Number(rows[rows.length - 1]!.id)
      : Math.max(head, cursor ?? 0);
  return { cursor: next, events };
}

/** An active custom rule with where its signal belongs. */
export interface RuleRow {
  id: number;
  tag_id: number;
  name: string;
  priority_id: number;
  operant: string;
  value: number;
  started_at: number | null;
  end_at: number | null;
  on_delay_s: number;
  off_delay_s: number;
  hysteresis: number;
  device_id: number;
  plant_id: number;
  poll_interval_s: number;
  unit: string | null;
}

/** Active custom rules on active signals of active devices. */
export async function loadActiveRules(db: Db): Promise<RuleRow[]> {
  const rows = await db
    .selectFrom('custom_alarms')
    .innerJoin('signals', 'signals.id', 'custom_alarms.tag_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'custom_alarms.id',
      'custom_alarms.tag_id',
      'custom_alarms.name',
      'custom_alarms.priority_id',
      'custom_alarms.operant',
      'custom_alarms.value',
      'custom_alarms.started_at',
      'custom_alarms.end_at',
      'custom_alarms.on_delay_s',
      'custom_alarms.off_delay_s',
      'custom_alarms.hysteresis',
      'signals.device_id',
      'devices.plant_id',
      'devices.poll_interval_s',
      'signals.unit',
    ])
    .where('custom_alarms.is_active', '=', 1)
    .execute();
  return rows.map((r) => ({
    ...r,
    value: Number(r.value),
    hysteresis: Number(r.hysteresis),
    started_at: r.started_at === null ? null : Number(r.started_at),
    end_at: r.end_at === null ? null : Number(r.end_at),
  }));
}

/** Signal keys the device and plant alarms read. */
export const STATUS_KEYS = ['status_code'] as const;
export const EVENT_KEYS = ['event_bits'] as const;
export const POWER_KEYS = ['ac_power'] as const;
export const IRRADIANCE_KEYS = ['irradiance', 'poa_irradiance', 'ghi'] as const;
/** A meter's grid presence at the connection point: 1 while the grid is there, 0 during an outage. */
export const GRID_KEYS = ['grid_available'] as const;

/** A signal the built-in alarms read. */
export interface CatalogRow {
  signal_id: number;
  key: string;
  device_id: number;
  device_type: string;
  plant_id: number;
  poll_interval_s: number;
  rated_power_kw: number | null;
}

/**
 * Status, event and power signals of active inverters, irradiance of active weather stations and grid
 * presence of active meters.
 */
export async function loadSignalCatalog(db: Db): Promise<CatalogRow[]> {
  const rows = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id as signal_id',
      'signals.key',
      'signals.device_id',
      'devices.type as device_type',
      'devices.plant_id',
      'devices.poll_interval_s',
      'devices.rated_power_kw',
    ])
    .where('devices.is_active', '=', 1)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('devices.type', '=', 'inverter'),
          eb('signals.key', 'in', [
            ...STATUS_KEYS,
            ...EVENT_KEYS,
            ...POWER_KEYS,
            ...VENDOR_ALARM_WORDS.keys(),
            ...VENDOR_ALARM_CODES.keys(),
          ]),
        ]),
        eb.and([eb('devices.type', '=', 'weather_station'), eb('signals.key', 'in', [...IRRADIANCE_KEYS])]),
        eb.and([eb('devices.type', '=', 'meter'), eb('signals.key', 'in', [...GRID_KEYS])]),
      ]),
    )
    .execute();
  return rows.map((r) => ({
    ...r,
    rated_power_kw: r.rated_power_kw === null ? null : Number(r.rated_power_kw),
  }));
}

/** Communication states the Modbus poller left in device_status, with each device's plant. */
export async function deviceCommStates(
  db: Db,
): Promise<{ device_id: number; plant_id: number; lost: boolean }[]> {
  const rows = await db
    .selectFrom('device_status')
    .innerJoin('devices', 'devices.id', 'device_status.device_id')
    .select(['device_status.device_id', 'devices.plant_id', 'device_status.comm_state'])
    .execute();
  return rows.map((r) => ({ device_id: r.device_id, plant_id: r.plant_id, lost: r.comm_state === 'lost' }));
}
