import type {
  AlarmListQuery,
  AlarmOperant,
  AlarmRecord,
  AlarmSource,
  AlarmStatusId,
  CustomAlarm,
  DeviceType,
} from '@solar/shared';
import { ALARM_STATUS, SUBSTATION_DEVICE_TYPES, alarmStateOf, alarmStatusName } from '@solar/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { bool, iso } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

/*
 * Reads of alarms as answers, alarm decisions and custom rules. The engine's writes (raise, clear, event
 * log) are in engine/alarm-store.repository.ts, which uses the reads below; nothing here imports it.
 */

/** Rows per multi-row statement (SQLite allows 32,766 variables; an alarm row has 15). */
const CHUNK = 500;

/** Splits a list into statement-sized parts. */
export function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Alarms joined with what an answer names, limited to the scope. */
export function scopedAlarms(db: Db, scope: Scope) {
  const q = db
    .selectFrom('alarms')
    .innerJoin('plants', 'plants.id', 'alarms.plant_id')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .leftJoin('devices', 'devices.id', 'alarms.device_id');
  return scope.all ? q : q.where('alarms.plant_id', 'in', reachable.plants(db, scope));
}

/**
 * The one definition of an active alarm on the server: its condition still holds (not cleared), whether
 * or not someone acknowledged it (ISA-18.2; docs/spec-differences.md, "Alarm states"). Every count and
 * list of active alarms filters with it.
 */
export const alarmIsActive = (eb: ExpressionBuilder<Database, 'alarms'>) =>
  eb('alarms.cleared_at', 'is', null);

/** The columns of an alarm answer. */
export function selectAlarm(q: ReturnType<typeof scopedAlarms>) {
  return q.select((eb) => [
    'alarms.id',
    'fields.company_id',
    'alarms.plant_id',
    'plants.name as plant_name',
    'plants.time_zone as plant_time_zone',
    'alarms.device_id',
    'devices.name as device_name',
    'devices.type as device_type',
    'alarms.tag_id',
    'alarms.source',
    'alarms.rule_id',
    'alarms.priority_id',
    'alarms.message',
    'alarms.message_params',
    'alarms.status_id',
    'alarms.started_at',
    'alarms.cleared_at',
    'alarms.approved_at',
    'alarms.approved_by',
    'alarms.rejected_at',
    'alarms.rejected_by',
    'alarms.fault_id',
    'alarms.cause_alarm_id',
    // A consequence is in its cause's plant, so the caller's scope covers it.
    eb
      .selectFrom('alarms as consequence')
      .select((c) => c.fn.countAll<number | string>().as('n'))
      .whereRef('consequence.cause_alarm_id', '=', 'alarms.id')
      .as('consequence_count'),
  ]);
}

type AlarmRow = Awaited<ReturnType<ReturnType<typeof selectAlarm>['executeTakeFirstOrThrow']>>;
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function params(json: string): AlarmRecord['message_params'] {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' ? (value as AlarmRecord['message_params']) : {};
  } catch {
    return {};
  }
}

/** Row → answer. */
export function toAlarmRecord(r: AlarmRow): AlarmRecord {
  const statusId = Number(r.status_id) as AlarmStatusId;
  return {
    id: r.id,
    company_id: r.company_id,
    plant_id: r.plant_id,
    plant_name: r.plant_name,
    plant_time_zone: r.plant_time_zone,
    device_id: r.device_id,
    device_name: r.device_name,
    device_type: r.device_type as DeviceType | null,
    tag_id: r.tag_id,
    source: r.source as AlarmSource,
    rule_id: r.rule_id,
    priority_id: Number(r.priority_id),
    message: r.message,
    message_params: params(r.message_params),
    status_id: statusId,
    status: alarmStatusName(statusId),
    state: alarmStateOf(r),
    started_at: iso(r.started_at),
    cleared_at: isoOrNull(r.cleared_at),
    approved_at: isoOrNull(r.approved_at),
    approved_by: r.approved_by,
    rejected_at: isoOrNull(r.rejected_at),
    rejected_by: r.rejected_by,
    fault_id: r.fault_id,
    cause_alarm_id: r.cause_alarm_id,
    consequence_count: Number(r.consequence_count ?? 0),
  };
}

/** The alarms with these ids (any scope), by id. */
export async function alarmsByIds(db: Db, ids: readonly number[]): Promise<Map<number, AlarmRecord>> {
  const out = new Map<number, AlarmRecord>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await selectAlarm(scopedAlarms(db, { all: true }))
      .where('alarms.id', 'in', part)
      .execute();
    for (const r of rows) out.set(r.id, toAlarmRecord(r));
  }
  return out;
}

/** Alarms in scope, newest first, filtered; `limit`/`offset` page them. */
export async function listAlarms(
  db: Db,
  scope: Scope,
  filter: Omit<AlarmListQuery, 'page' | 'pageSize'>,
  page: { limit: number; offset: number },
  withTotal: boolean,
): Promise<{ items: AlarmRecord[]; total: number }> {
  let q = scopedAlarms(db, scope);
  if (filter.status_id !== undefined) q = q.where('alarms.status_id', '=', filter.status_id);
  if (filter.priority_id !== undefined) q = q.where('alarms.priority_id', '=', filter.priority_id);
  if (filter.plant_id !== undefined) q = q.where('alarms.plant_id', '=', filter.plant_id);
  if (filter.device_id !== undefined) q = q.where('alarms.device_id', '=', filter.device_id);
  if (filter.active === true) q = q.where(alarmIsActive);
  if (filter.active === false) q = q.where('alarms.cleared_at', 'is not', null);
  if (filter.from !== undefined) q = q.where('alarms.started_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('alarms.started_at', '<', filter.to);
  const rows = await selectAlarm(q)
    .orderBy('alarms.started_at', 'desc')
    .orderBy('alarms.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const items = rows.map(toAlarmRecord);
  if (!withTotal) return { items, total: items.length };
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return { items, total: Number(total) };
}

/** An alarm in scope, or undefined. */
export async function findAlarm(db: Db, scope: Scope, id: number): Promise<AlarmRecord | undefined> {
  const row = await selectAlarm(scopedAlarms(db, scope)).where('alarms.id', '=', id).executeTakeFirst();
  return row && toAlarmRecord(row);
}

/** Active alarms of transformers, protection relays and meters in scope, newest first. */
export async function substationAlarms(db: Db, scope: Scope, cap: number): Promise<AlarmRecord[]> {
  const rows = await selectAlarm(scopedAlarms(db, scope).where(alarmIsActive))
    .where('devices.type', 'in', [...SUBSTATION_DEVICE_TYPES])
    .orderBy('alarms.started_at', 'desc')
    .orderBy('alarms.id', 'desc')
    .limit(cap)
    .execute();
  return rows.map(toAlarmRecord);
}

/** Active alarms counted by plant, device, priority and source. */
export interface ActiveAlarmCount {
  plantId: number;
  deviceId: number | null;
  priorityId: number;
  source: AlarmSource;
  count: number;
}

/**
 * The alarms active now (whereActive) in the scope, and of `plantIds` only when given, counted by plant,
 * device, priority and source: what the header badge, the dashboard, the plants list and map, the plant
 * and device pages and /alarms count.
 */
export async function countActiveAlarms(
  db: Db,
  scope: Scope,
  plantIds?: readonly number[],
): Promise<ActiveAlarmCount[]> {
  if (plantIds && plantIds.length === 0) return [];
  const out: ActiveAlarmCount[] = [];
  for (const part of plantIds ? chunks(plantIds) : [undefined]) {
    let q = db.selectFrom('alarms').where(alarmIsActive);
    if (!scope.all) q = q.where('alarms.plant_id', 'in', reachable.plants(db, scope));
    if (part) q = q.where('alarms.plant_id', 'in', part);
    const rows = await q
      .select((eb) => [
        'alarms.plant_id',
        'alarms.device_id',
        'alarms.priority_id',
        'alarms.source',
        eb.fn.countAll<number | string>().as('n'),
      ])
      .groupBy(['alarms.plant_id', 'alarms.device_id', 'alarms.priority_id', 'alarms.source'])
      .execute();
    for (const r of rows)
      out.push({
        plantId: r.plant_id,
        deviceId: r.device_id,
        priorityId: Number(r.priority_id),
        source: r.source as AlarmSource,
        count: Number(r.n),
      });
  }
  return out;
}

/** True when the scope reaches the plant. */
export async function plantReachable(db: Db, scope: Scope, plantId: number): Promise<boolean> {
  let q = db.selectFrom('plants').select('plants.id').where('plants.id', '=', plantId);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return !!(await q.executeTakeFirst());
}

/**
 * Moves an alarm to approved (2) or rejected (3) when it is active (1) or cleared (4); answers false when
 * it already was approved or rejected (the caller answers 409). One statement, so two concurrent
 * approvals cannot both win.
 */
export async function decide(
  trx: Db,
  id: number,
  decision: 'approve' | 'reject',
  at: number,
  by: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('alarms')
    .set(
      decision === 'approve'
        ? { status_id: ALARM_STATUS.approved, approved_at: at, approved_by: by }
        : { status_id: ALARM_STATUS.rejected, rejected_at: at, rejected_by: by },
    )
    .where('id', '=', id)
    .where('status_id', 'in', [ALARM_STATUS.active, ALARM_STATUS.cleared])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The consequences of an alarm not yet approved or rejected (active or cleared), oldest first. */
export async function undecidedConsequences(trx: Db, causeId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('alarms')
    .select('id')
    .where('cause_alarm_id', '=', causeId)
    .where('status_id', 'in', [ALARM_STATUS.active, ALARM_STATUS.cleared])
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function setFault(trx: Db, id: number, faultId: number): Promise<void> {
  await trx.updateTable('alarms').set({ fault_id: faultId }).where('id', '=', id).execute();
}

// Custom alarm rules.

function scopedRules(db: Db, scope: Scope) {
  const q = db
    .selectFrom('custom_alarms')
    .innerJoin('signals', 'signals.id', 'custom_alarms.tag_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .innerJoin('fields', 'fields.id', 'plants.field_id');
  return scope.all ? q : q.where('devices.plant_id', 'in', reachable.plants(db, scope));
}

function selectRule(q: ReturnType<typeof scopedRules>) {
  return q
    .selectAll('custom_alarms')
    .select([
      'fields.company_id',
      'devices.plant_id',
      'plants.time_zone as plant_time_zone',
      'signals.device_id',
      'signals.name as tag_name',
      'signals.key as tag_key',
      'signals.unit',
    ]);
}

type RuleRow = Awaited<ReturnType<ReturnType<typeof selectRule>['executeTakeFirstOrThrow']>>;

const toRule = (r: RuleRow): CustomAlarm => ({
  id: r.id,
  company_id: r.company_id,
  plant_id: r.plant_id,
  plant_time_zone: r.plant_time_zone,
  device_id: r.device_id,
  name: r.name,
  description: r.description,
  priority_id: Number(r.priority_id),
  tag_id: r.tag_id,
  tag_name: r.tag_name,
  tag_key: r.tag_key,
  unit: r.unit,
  operant: r.operant as AlarmOperant,
  value: Number(r.value),
  started_at: isoOrNull(r.started_at),
  end_at: isoOrNull(r.end_at),
  is_active: bool(r.is_active),
  on_delay_s: Number(r.on_delay_s),
  off_delay_s: Number(r.off_delay_s),
  hysteresis: Number(r.hysteresis),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export interface RuleValues {
  tag_id: number;
  name: string;
  description: string | null;
  priority_id: number;
  operant: AlarmOperant;
  value: number;
  started_at: number | null;
  end_at: number | null;
  is_active: boolean;
  on_delay_s: number;
  off_delay_s: number;
  hysteresis: number;
}

const columns = (v: RuleValues) => ({ ...v, is_active: v.is_active ? 1 : 0 });

export async function listRules(db: Db, scope: Scope): Promise<CustomAlarm[]> {
  const rows = await selectRule(scopedRules(db, scope)).orderBy('custom_alarms.id', 'asc').execute();
  return rows.map(toRule);
}

export async function findRule(db: Db, scope: Scope, id: number): Promise<CustomAlarm | undefined> {
  const row = await selectRule(scopedRules(db, scope)).where('custom_alarms.id', '=', id).executeTakeFirst();
  return row && toRule(row);
}

/** True when the scope reaches the signal. */
export async function signalReachable(db: Db, scope: Scope, signalId: number): Promise<boolean> {
  let q = db.selectFrom('signals').select('signals.id').where('signals.id', '=', signalId);
  if (!scope.all) q = q.where('signals.device_id', 'in', reachable.devices(db, scope));
  return !!(await q.executeTakeFirst());
}

export async function insertRule(db: Db, values: RuleValues, by: number, now: number): Promise<number> {
  const row = await db
    .insertInto('custom_alarms')
    .values({ ...columns(values), created_by: by, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRule(db: Db, id: number, values: RuleValues, now: number): Promise<void> {
  await db
    .updateTable('custom_alarms')
    .set({ ...columns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteRule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('custom_alarms').where('id', '=', id).execute();
}
