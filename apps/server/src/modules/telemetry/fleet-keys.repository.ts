import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

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
