import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

/** A device the scope reaches, or undefined. */
export async function findDevice(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('devices').select(['id', 'type', 'protocol']).where('id', '=', id);
  if (!scope.all) q = q.where('plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}
