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

/** A camera the probe asks for an image: active, with a stored snapshot address. */
export interface ProbeTarget {
  id: number;
  snapshot_url: string;
}

/** Every active camera with a snapshot address, whatever its company (the probe serves every screen). */
export async function listProbeTargets(db: Db): Promise<ProbeTarget[]> {
  const rows = await db
    .selectFrom('devices')
    .select(['devices.id', 'devices.snapshot_url'])
    .where('devices.type', '=', 'camera')
    .where('devices.is_active', '=', 1)
    .where('devices.snapshot_url', 'is not', null)
    .orderBy('devices.id')
    .execute();
  return rows.map((r) => ({ id: r.id, snapshot_url: r.snapshot_url! }));
}

/** What one probe of a camera got: an image (last_error null) or not. */
export interface ProbeOutcome {
  device_id: number;
  probed_at: number;
  last_error: string | null;
}

/**
 * Records a probe (an upsert both dialects speak): an image moves last_image_at to the probe's time; a
 * failure keeps the last image's time, so the status ages into offline only after the window.
 */
export async function recordProbe(db: Db, outcome: ProbeOutcome): Promise<void> {
  const lastError = outcome.last_error?.slice(0, 500) ?? null;
  const imageAt = lastError === null ? outcome.probed_at : null;
  await db
    .insertInto('camera_probes')
    .values({
      device_id: outcome.device_id,
      probed_at: outcome.probed_at,
      last_image_at: imageAt,
      last_error: lastError,
    })
    .onConflict((oc) =>
      oc.column('device_id').doUpdateSet((eb) => ({
        probed_at: outcome.probed_at,
        last_error: lastError,
        last_image_at: imageAt === null ? eb.ref('camera_probes.last_image_at') : imageAt,
      })),
    )
    .execute();
}
