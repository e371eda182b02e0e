import type { Db } from '../../db/database';

export type KeyOwner =
  { device_id: number; plant_id?: undefined } | { plant_id: number; device_id?: undefined };

const ownerWhere = (owner: KeyOwner) =>
  owner.device_id !== undefined
    ? ({ column: 'device_id', id: owner.device_id } as const)
    : ({ column: 'plant_id', id: owner.plant_id } as const);

/** The live (not revoked) key of a device or plant. */
export async function findLiveKey(db: Db, owner: KeyOwner) {
  const { column, id } = ownerWhere(owner);
  return db
    .selectFrom('ingest_keys')
    .select(['id', 'prefix', 'created_at', 'last_used_at'])
    .where(column, '=', id)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Revokes the live keys of the owner; answers how many. */
export async function revokeKeys(db: Db, owner: KeyOwner, now: number): Promise<number> {
  const { column, id } = ownerWhere(owner);
  const res = await db
    .updateTable('ingest_keys')
    .set({ revoked_at: now })
    .where(column, '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function insertKey(
  db: Db,
  owner: KeyOwner,
  values: { key_hash: string; prefix: string; created_at: number; created_by: number },
): Promise<number> {
  const { id } = await db
    .insertInto('ingest_keys')
    .values({ ...values, device_id: owner.device_id ?? null, plant_id: owner.plant_id ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A live key by its hash, with the owner still present. */
export async function findKeyByHash(db: Db, hash: string) {
  return db
    .selectFrom('ingest_keys')
    .leftJoin('devices', 'devices.id', 'ingest_keys.device_id')
    .leftJoin('plants', 'plants.id', 'ingest_keys.plant_id')
    .select([
      'ingest_keys.id',
      'ingest_keys.device_id',
      'ingest_keys.plant_id',
      'ingest_keys.last_used_at',
      'devices.id as device_exists',
      'plants.id as plant_exists',
    ])
    .where('ingest_keys.key_hash', '=', hash)
    .where('ingest_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchKey(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable('ingest_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** The live key of a plant that still exists, with its hash (what signs the plant's edge batches over MQTT). */
export async function findLivePlantKeyHash(db: Db, plantId: number) {
  return db
    .selectFrom('ingest_keys')
    .innerJoin('plants', 'plants.id', 'ingest_keys.plant_id')
    .select(['ingest_keys.id', 'ingest_keys.key_hash', 'ingest_keys.last_used_at'])
    .where('ingest_keys.plant_id', '=', plantId)
    .where('ingest_keys.revoked_at', 'is', null)
    .orderBy('ingest_keys.id', 'desc')
    .executeTakeFirst();
}
