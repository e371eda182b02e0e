import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { fromTelemetry } from '../../telemetry-store/queries';

/** The devices the scope reaches, with their plant and newest stored sample time. */
export async function readFleetDevices(db: Db, scope: Scope) {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .leftJoin('device_last_data', 'device_last_data.device_id', 'devices.id')
    .select([
      'devices.id as device_id',
      'devices.name as device_name',
      'devices.type as device_type',
      'devices.protocol',
      'devices.is_active',
      'devices.poll_interval_s',
      'plants.id as plant_id',
      'plants.name as plant_name',
      'device_last_data.ts as last_ts',
    ]);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.orderBy('plants.name').orderBy('devices.name').orderBy('devices.id').execute();
}

/** Raw points stored per device since `sinceMs` (the raw points' (signal_id, ts) key serves the range). */
export async function countPointsSince(
  db: Db,
  deviceIds: readonly number[],
  sinceMs: number,
): Promise<Map<number, number>> {
  if (!deviceIds.length) return new Map();
  const rows = await fromTelemetry(db, 'raw', 'raw')
    .innerJoin('signals', 'signals.id', 'raw.signal_id')
    .select(['signals.device_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('raw.ts', '>=', sinceMs)
    .where('signals.device_id', 'in', deviceIds)
    .groupBy('signals.device_id')
    .execute();
  return new Map(rows.map((r) => [r.device_id, Number(r.n)]));
}

/** The stored refusal and duplicate counters of the devices. */
export async function readCountsOf(db: Db, deviceIds: readonly number[]) {
  if (!deviceIds.length) return [];
  return db
    .selectFrom('device_ingest_counts')
    .select(['device_id', 'reason', 'count', 'last_at'])
    .where('device_id', 'in', deviceIds)
    .execute();
}

/** The live ingest keys of the devices and plants the scope reaches (or the one key `id`), newest first. */
export async function readLiveKeys(db: Db, scope: Scope, id?: number) {
  let q = db
    .selectFrom('ingest_keys')
    .leftJoin('devices', 'devices.id', 'ingest_keys.device_id')
    .leftJoin('plants', (join) =>
      join.on((eb) =>
        eb.or([
          eb('plants.id', '=', eb.ref('ingest_keys.plant_id')),
          eb('plants.id', '=', eb.ref('devices.plant_id')),
        ]),
      ),
    )
    .select([
      'ingest_keys.id',
      'ingest_keys.prefix',
      'ingest_keys.device_id',
      'ingest_keys.plant_id as key_plant_id',
      'ingest_keys.created_at',
      'ingest_keys.last_used_at',
      'devices.name as device_name',
      'plants.id as plant_id',
      'plants.name as plant_name',
    ])
    .where('ingest_keys.revoked_at', 'is', null)
    // A key whose owner was deleted accepts nothing (IngestKeysService.verify): not a live key.
    .where('plants.id', 'is not', null);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  if (id !== undefined) q = q.where('ingest_keys.id', '=', id);
  return q.orderBy('ingest_keys.created_at', 'desc').orderBy('ingest_keys.id', 'desc').execute();
}

/** One live key the scope reaches, or undefined. */
export async function findLiveKey(db: Db, scope: Scope, id: number) {
  return (await readLiveKeys(db, scope, id))[0];
}

/** Marks the key revoked; answers whether it was live. */
export async function revokeKey(db: Db, id: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('ingest_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The migrations the database has run, by name, with when (Kysely's bookkeeping table). */
export async function readAppliedMigrations(db: Db): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; timestamp: string }>`
    select name, timestamp from kysely_migration order by name
  `.execute(db);
  return new Map(rows.map((r) => [r.name, r.timestamp]));
}
