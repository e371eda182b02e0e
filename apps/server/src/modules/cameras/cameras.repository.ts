import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

export interface CameraTarget {
  id: number;
  snapshot_url: string | null;
  stream_url: string | null;
}

/** A camera device the scope reaches, with its stored (unmasked) addresses; other device types are not cameras. */
export async function findCamera(db: Db, scope: Scope, id: number): Promise<CameraTarget | undefined> {
  let q = db
    .selectFrom('devices')
    .select(['devices.id', 'devices.snapshot_url', 'devices.stream_url'])
    .where('devices.id', '=', id)
    .where('devices.type', '=', 'camera');
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}
