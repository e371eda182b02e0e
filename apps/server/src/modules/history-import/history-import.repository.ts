import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { HistoryImportsTable } from '../../db/schema';
import { reachable, type Scope } from '../../lib/scope';

/** The plant an import goes into, if the scope reaches it, with what the quality detectors need. */
export async function plantInScope(db: Db, scope: Scope, plantId: number) {
  let q = db
    .selectFrom('plants')
    .select([
      'plants.id',
      'plants.time_zone',
      'plants.latitude',
      'plants.longitude',
      'plants.tilt_deg',
      'plants.azimuth_deg',
      'plants.ac_capacity_kw',
      'plants.dc_capacity_kwp',
    ])
    .where('plants.id', '=', plantId);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

/** The plant's signals among `ids`, with their device: signals of other plants are not answered. */
export async function signalsOfPlant(db: Db, plantId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id',
      'signals.device_id',
      'signals.key',
      'signals.unit',
      'signals.is_counter',
      'devices.name as device_name',
      'devices.rated_power_kw',
    ])
    .where('devices.plant_id', '=', plantId)
    .where('signals.id', 'in', [...ids])
    .execute();
}

export type ImportRow = Omit<Selectable<HistoryImportsTable>, 'content'>;

const WITHOUT_CONTENT = [
  'id',
  'plant_id',
  'user_id',
  'file_name',
  'format',
  'detection',
  'mapping',
  'state',
  'points_total',
  'points_done',
  'points_new',
  'points_existing',
  'errors',
  'created_at',
  'started_at',
  'finished_at',
  'heartbeat_at',
] as const;

export async function insertImport(
  db: Db,
  row: Omit<HistoryImportsTable, 'id' | 'points_total' | 'points_done' | 'points_new' | 'points_existing'>,
): Promise<number> {
  const made = await db
    .insertInto('history_imports')
    .values({ ...row, points_total: 0, points_done: 0, points_new: 0, points_existing: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

export function readImport(db: Db, id: number): Promise<ImportRow | undefined> {
  return db.selectFrom('history_imports').select(WITHOUT_CONTENT).where('id', '=', id).executeTakeFirst();
}

export async function readContent(db: Db, id: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('history_imports')
    .select('content')
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? Buffer.from(row.content) : undefined;
}

export function listImports(db: Db, plantId: number): Promise<ImportRow[]> {
  return db
    .selectFrom('history_imports')
    .select(WITHOUT_CONTENT)
    .where('plant_id', '=', plantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

export async function updateImport(
  db: Db,
  id: number,
  patch: Partial<Omit<HistoryImportsTable, 'id' | 'plant_id' | 'content'>>,
): Promise<void> {
  await db.updateTable('history_imports').set(patch).where('id', '=', id).execute();
}

/**
 * Moves an import from one of `from` to `to` in one statement: answers false when another request got
 * there first (two clicks on "run" start one job).
 */
export async function claimImport(
  db: Db,
  id: number,
  from: readonly string[],
  patch: Partial<Omit<HistoryImportsTable, 'id' | 'plant_id' | 'content'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('history_imports')
    .set(patch)
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Imports left `queued` or `running` whose node has not written them since `staleBefore`: their process died. */
export function interruptedImports(db: Db, staleBefore: number): Promise<ImportRow[]> {
  return db
    .selectFrom('history_imports')
    .select(WITHOUT_CONTENT)
    .where('state', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
    .orderBy('id')
    .execute();
}

/**
 * Takes over an interrupted import in one statement (its heartbeat still stale): answers false when another
 * node took it first.
 */
export async function claimInterrupted(
  db: Db,
  id: number,
  staleBefore: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('history_imports')
    .set({ heartbeat_at: now })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
