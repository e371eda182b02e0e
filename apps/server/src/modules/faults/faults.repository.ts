import { sql } from 'kysely';
import type { z } from 'zod';
import type { Fault, FaultComment, FaultHistoryEntry, FaultStatus, faultListQuery } from '@solar/shared';
import type { Db } from '../../db/database';
import { iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

export type FaultListFilter = z.output<typeof faultListQuery>;

/** The columns a save writes (the timestamps of the workflow are set by the service). */
export interface FaultValues {
  plant_id: number;
  device_id: number | null;
  tag_id: number | null;
  title: string;
  description: string | null;
  priority_id: number;
  status: FaultStatus;
  assignee_user_id: number | null;
  root_cause: string | null;
  resolution: string | null;
  acknowledged_at: number | null;
  resolved_at: number | null;
  closed_at: number | null;
}

const SORT_REFS: Record<FaultListFilter['sort']['column'], string> = {
  id: 'faults.id',
  title: 'faults.title',
  priority_id: 'faults.priority_id',
  status: 'faults.status',
  plant_name: 'plants.name',
  detected_at: 'faults.detected_at',
  created_at: 'faults.created_at',
  updated_at: 'faults.updated_at',
};

function scoped(db: Db, scope: Scope) {
  const q = db
    .selectFrom('faults')
    .innerJoin('plants', 'plants.id', 'faults.plant_id')
    .innerJoin('fields', 'fields.id', 'plants.field_id');
  return scope.all ? q : q.where('faults.plant_id', 'in', reachable.plants(db, scope));
}

function selectFault(q: ReturnType<typeof scoped>) {
  return q
    .leftJoin('devices', 'devices.id', 'faults.device_id')
    .leftJoin('users as assignee', 'assignee.id', 'faults.assignee_user_id')
    .selectAll('faults')
    .select([
      'plants.name as plant_name',
      'plants.time_zone as plant_time_zone',
      'plants.field_id as field_id',
      'fields.company_id as company_id',
      'devices.name as device_name',
      'assignee.name as assignee_first_name',
      'assignee.surname as assignee_surname',
    ]);
}

const nameOf = (name: string | null, surname: string | null) =>
  name === null ? null : `${name} ${surname ?? ''}`.trim();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const seconds = (from: number, to: number | null) =>
  to === null ? null : Math.max(0, Math.round((Number(to) - Number(from)) / 1000));

/** The stored JSON parameters of a title; an unreadable value reads as none rather than failing the list. */
function paramsOf(json: string | null): Record<string, string | number | null> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    return value !== null && typeof value === 'object'
      ? (value as Record<string, string | number | null>)
      : {};
  } catch {
    return {};
  }
}

type Row = Awaited<ReturnType<ReturnType<typeof selectFault>['executeTakeFirstOrThrow']>>;
const toFault = (r: Row): Fault => ({
  id: r.id,
  alarm_id: r.alarm_id,
  plant_id: r.plant_id,
  plant_name: r.plant_name,
  plant_time_zone: r.plant_time_zone,
  field_id: r.field_id,
  company_id: r.company_id,
  device_id: r.device_id,
  device_name: r.device_name,
  tag_id: r.tag_id,
  title: r.title,
  title_code: r.title_code,
  title_params: r.title_code === null ? null : paramsOf(r.title_params),
  description: r.description,
  priority_id: r.priority_id,
  status: r.status,
  assignee_user_id: r.assignee_user_id,
  assignee_name: nameOf(r.assignee_first_name, r.assignee_surname),
  root_cause: r.root_cause,
  resolution: r.resolution,
  created_by: r.created_by,
  detected_at: iso(r.detected_at),
  created_at: iso(r.created_at),
  acknowledged_at: isoOrNull(r.acknowledged_at),
  resolved_at: isoOrNull(r.resolved_at),
  closed_at: isoOrNull(r.closed_at),
  updated_at: iso(r.updated_at),
  time_to_acknowledge_s: seconds(r.detected_at, r.acknowledged_at),
  time_to_repair_s: seconds(r.detected_at, r.resolved_at),
});

/**
 * One page of the faults the scope reaches, and how many there are. The search `q` finds the stored title,
 * description and plant name, and every fault whose title carries one of `titleCodes` (the message codes
 * whose text in some language contains the search).
 */
export async function listFaults(
  db: Db,
  scope: Scope,
  filter: FaultListFilter,
  titleCodes: readonly string[] = [],
) {
  let q = scoped(db, scope);
  if (filter.status !== undefined) q = q.where('faults.status', '=', filter.status);
  if (filter.plant_id !== undefined) q = q.where('faults.plant_id', '=', filter.plant_id);
  if (filter.priority_id !== undefined) q = q.where('faults.priority_id', '=', filter.priority_id);
  if (filter.assignee_user_id !== undefined)
    q = q.where('faults.assignee_user_id', '=', filter.assignee_user_id);
  if (filter.alarm_id !== undefined) q = q.where('faults.alarm_id', '=', filter.alarm_id);
  if (filter.from !== undefined) q = q.where('faults.created_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('faults.created_at', '<', filter.to);
  if (filter.q) {
    const text = searchAny(['faults.title', 'faults.description', 'plants.name'], filter.q);
    q = q.where(
      titleCodes.length === 0 ? text : (eb) => eb.or([text, eb('faults.title_code', 'in', titleCodes)]),
    );
  }
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await selectFault(q)
    .orderBy(sql.ref(SORT_REFS[filter.sort.column]), direction)
    .orderBy('faults.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toFault), total: Number(total) };
}

/** A fault the scope reaches, or undefined. */
export async function findFault(db: Db, scope: Scope, id: number): Promise<Fault | undefined> {
  const row = await selectFault(scoped(db, scope)).where('faults.id', '=', id).executeTakeFirst();
  return row && toFault(row);
}

/** The id of the fault made from an alarm, if any (no scope: the alarm was already reached). */
export async function faultIdOfAlarm(db: Db, alarmId: number): Promise<number | undefined> {
  const row = await db.selectFrom('faults').select('id').where('alarm_id', '=', alarmId).executeTakeFirst();
  return row?.id;
}

/** The plant's company when the scope reaches the plant; undefined otherwise. */
export async function reachablePlantCompany(
  db: Db,
  scope: Scope,
  plantId: number,
): Promise<number | undefined> {
  let q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select('fields.company_id')
    .where('plants.id', '=', plantId);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return (await q.executeTakeFirst())?.company_id;
}

export async function deviceOf(db: Db, id: number) {
  return db.selectFrom('devices').select(['id', 'plant_id']).where('id', '=', id).executeTakeFirst();
}

export async function signalOf(db: Db, id: number) {
  return db.selectFrom('signals').select(['id', 'device_id']).where('id', '=', id).executeTakeFirst();
}

/** True for an active user of the company (who may be assigned a fault of its plants). */
export async function isActiveUserOfCompany(db: Db, userId: number, companyId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('company_id', '=', companyId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return !!row;
}

export async function insertFault(
  db: Db,
  values: FaultValues & {
    alarm_id: number | null;
    created_by: number | null;
    detected_at: number;
    /** The message the title was rendered from (a fault made from an alarm). */
    title_code?: string | null;
    title_params?: string | null;
  },
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('faults')
    .values({ ...values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Saves a fault; a title that changed is a person's text now, so it loses the message code it came from. */
export async function updateFault(db: Db, id: number, values: FaultValues, now: number): Promise<void> {
  await db
    .updateTable('faults')
    .set((eb) => ({
      ...values,
      updated_at: now,
      title_code: eb.case().when('title', '=', values.title).then(eb.ref('title_code')).else(null).end(),
      title_params: eb.case().when('title', '=', values.title).then(eb.ref('title_params')).else(null).end(),
    }))
    .where('id', '=', id)
    .execute();
}

export async function deleteFault(db: Db, id: number): Promise<void> {
  // Comments and history go with it (on delete cascade); deleted explicitly too, for clarity on SQLite
  // databases opened without foreign keys.
  await db.deleteFrom('fault_comments').where('fault_id', '=', id).execute();
  await db.deleteFrom('fault_status_history').where('fault_id', '=', id).execute();
  await db.deleteFrom('faults').where('id', '=', id).execute();
}

export async function insertHistory(
  db: Db,
  entry: {
    fault_id: number;
    user_id: number | null;
    from_status: FaultStatus | null;
    to_status: FaultStatus;
  },
  at: number,
): Promise<void> {
  await db
    .insertInto('fault_status_history')
    .values({ ...entry, at })
    .execute();
}

export async function insertComment(
  db: Db,
  entry: { fault_id: number; user_id: number | null; body: string },
  at: number,
): Promise<number> {
  const { id } = await db
    .insertInto('fault_comments')
    .values({ ...entry, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Comments of a fault, oldest first. */
export async function commentsOf(db: Db, faultId: number): Promise<FaultComment[]> {
  const rows = await db
    .selectFrom('fault_comments')
    .leftJoin('users', 'users.id', 'fault_comments.user_id')
    .select([
      'fault_comments.id',
      'fault_comments.fault_id',
      'fault_comments.user_id',
      'fault_comments.body',
      'fault_comments.created_at',
      'users.name',
      'users.surname',
    ])
    .where('fault_comments.fault_id', '=', faultId)
    .orderBy('fault_comments.created_at')
    .orderBy('fault_comments.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    fault_id: r.fault_id,
    user_id: r.user_id,
    user_name: nameOf(r.name, r.surname),
    body: r.body,
    created_at: iso(r.created_at),
  }));
}

/** Status history of a fault, oldest first. */
export async function historyOf(db: Db, faultId: number): Promise<FaultHistoryEntry[]> {
  const rows = await db
    .selectFrom('fault_status_history')
    .leftJoin('users', 'users.id', 'fault_status_history.user_id')
    .select([
      'fault_status_history.id',
      'fault_status_history.user_id',
      'fault_status_history.from_status',
      'fault_status_history.to_status',
      'fault_status_history.at',
      'users.name',
      'users.surname',
    ])
    .where('fault_status_history.fault_id', '=', faultId)
    .orderBy('fault_status_history.at')
    .orderBy('fault_status_history.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    user_id: r.user_id,
    user_name: nameOf(r.name, r.surname),
    from_status: r.from_status as FaultStatus | null,
    to_status: r.to_status as FaultStatus,
    at: iso(r.at),
  }));
}

/** Marks the fault as changed (a new comment). */
export async function touchFault(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('faults').set({ updated_at: now }).where('id', '=', id).execute();
}

/** A user's language_id (null when the user is gone). */
export async function languageOf(db: Db, userId: number): Promise<number | null> {
  const row = await db.selectFrom('users').select('language_id').where('id', '=', userId).executeTakeFirst();
  return row?.language_id ?? null;
}

/** The alarms approved into a fault (its own and its consequences), oldest first. */
export async function alarmIdsOf(db: Db, faultId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('alarms')
    .select('id')
    .where('fault_id', '=', faultId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
