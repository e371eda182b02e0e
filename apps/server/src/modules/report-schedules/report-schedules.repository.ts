import { sql, type Selectable } from 'kysely';
import type { Db, Dialect } from '../../db/database';
import type { ReportSchedulesTable } from '../../db/schema';
import { reachable, type Scope } from '../../lib/scope';

export type ScheduleRow = Selectable<ReportSchedulesTable>;

/** What a save writes besides the run state. */
export interface ScheduleValues {
  report_type: string;
  plant_ids: number[];
  formats: string[];
  frequency: string;
  local_time: string;
  weekday: number;
  time_zone: string;
  is_paused: boolean;
}

/** The run state a save or a run writes. */
export interface RunState {
  next_run_at: number;
  due_at: number;
  failed_attempts: number;
  last_status: string | null;
  last_error: string | null;
}

export interface PlantInfo {
  id: number;
  name: string;
  time_zone: string;
}

const columns = (v: ScheduleValues) => ({
  ...v,
  plant_ids: JSON.stringify(v.plant_ids),
  formats: JSON.stringify(v.formats),
  is_paused: v.is_paused ? 1 : 0,
});

/** The user's own subscriptions, oldest first. */
export function listSchedules(db: Db, userId: number): Promise<ScheduleRow[]> {
  return db.selectFrom('report_schedules').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** One of the user's subscriptions, or undefined (another user's is not revealed). */
export function findSchedule(db: Db, userId: number, id: number): Promise<ScheduleRow | undefined> {
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findScheduleById(db: Db, id: number): Promise<ScheduleRow | undefined> {
  return db.selectFrom('report_schedules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSchedule(
  db: Db,
  userId: number,
  values: ScheduleValues,
  state: RunState,
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('report_schedules')
    .values({ user_id: userId, ...columns(values), ...state, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateSchedule(
  db: Db,
  id: number,
  values: ScheduleValues,
  state: RunState | undefined,
  now: number,
): Promise<void> {
  await db
    .updateTable('report_schedules')
    .set({ ...columns(values), ...state, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Makes the saves that could add a subscription for this owner wait for each other until the transaction
 * ends, so that two parallel creates never both see the last free place. On PostgreSQL the owner's company
 * row (or the user's own row for the console admin, who has none) is locked FOR NO KEY UPDATE, which leaves
 * the foreign-key checks of other writes alone; SQLite's transactions already run one at a time.
 */
export async function lockScheduleOwner(
  trx: Db,
  dialect: Dialect,
  userId: number,
  companyId: number | null,
): Promise<void> {
  if (dialect !== 'postgres') return;
  if (companyId !== null) {
    await sql`select id from companies where id = ${companyId} for no key update`.execute(trx);
  } else {
    await sql`select id from users where id = ${userId} for no key update`.execute(trx);
  }
}

/** How many subscriptions the user holds. */
export async function countUserSchedules(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('report_schedules')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many subscriptions the users of the company hold together. */
export async function countCompanySchedules(db: Db, companyId: number): Promise<number> {
  const row = await db
    .selectFrom('report_schedules')
    .innerJoin('users', 'users.id', 'report_schedules.user_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('users.company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteSchedule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('report_schedules').where('id', '=', id).execute();
}

/** The plants among `ids` that the scope reaches, with their names and zones. */
export async function plantsInScope(db: Db, scope: Scope, ids: readonly number[]): Promise<PlantInfo[]> {
  if (ids.length === 0) return [];
  let q = db.selectFrom('plants').select(['id', 'name', 'time_zone']).where('id', 'in', ids);
  if (!scope.all) q = q.where('id', 'in', reachable.plants(db, scope));
  return q.execute();
}

/** Ids of unpaused subscriptions whose attempt is due, most overdue first. */
export async function dueScheduleIds(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('report_schedules')
    .select('id')
    .where('is_paused', '=', 0)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Takes a due subscription for one runner: moves its `due_at` from the value read to `until`. False when
 * another runner, a save or a pause changed it first.
 */
export async function claimSchedule(db: Db, id: number, dueAt: number, until: number): Promise<boolean> {
  const result = await db
    .updateTable('report_schedules')
    .set({ due_at: until })
    .where('id', '=', id)
    .where('due_at', '=', dueAt)
    .where('is_paused', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes a run's outcome, unless a save changed the subscription since the claim (its state wins). */
export async function finishRun(
  db: Db,
  id: number,
  claimedUntil: number,
  state: RunState & { last_sent_at?: number },
): Promise<void> {
  await db
    .updateTable('report_schedules')
    .set(state)
    .where('id', '=', id)
    .where('due_at', '=', claimedUntil)
    .execute();
}
