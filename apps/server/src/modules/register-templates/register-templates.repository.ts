import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

/** A device the scope reaches, or undefined. */
export async function findDevice(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('devices').select(['id', 'type', 'protocol']).where('id', '=', id);
  if (!scope.all) q = q.where('plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

export async function signalKeysOf(db: Db, deviceId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('signals').select('key').where('device_id', '=', deviceId).execute();
  return new Set(rows.map((r) => r.key));
}

export interface NewSignal {
  device_id: number;
  key: string;
  name: string;
  unit: string | null;
  data_type: string;
  register_type: string;
  address: number;
  word_order: string;
  scale: number;
  is_counter: boolean;
}

export async function insertSignal(db: Db, s: NewSignal, now: number): Promise<number> {
  const { id } = await db
    .insertInto('signals')
    .values({ ...s, is_counter: s.is_counter ? 1 : 0, is_active: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
