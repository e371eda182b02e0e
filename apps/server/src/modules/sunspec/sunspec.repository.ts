import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

/** The connection settings of a device the scope reaches, or undefined. */
export async function findDeviceConnection(db: Db, scope: Scope, id: number) {
  let q = db
    .selectFrom('devices')
    .select(['id', 'plant_id', 'name', 'protocol', 'ip', 'port', 'slave_id'])
    .where('id', '=', id);
  if (!scope.all) q = q.where('plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}
