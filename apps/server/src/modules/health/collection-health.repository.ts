import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { fromTelemetry } from '../../telemetry-store/queries';

/** The devices the scope reaches, with their plant, newest stored sample time and (cameras) last probe. */
export async function readFleetDevices(db: Db, scope: Scope) {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .leftJoin('device_last_data', 'device_last_data.device_id', 'devices.id')
    .leftJoin('camera_probes', 'camera_probes.device_id', 'devices.id')
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
      'camera_probes.probed_at as camera_probed_at',
      'camera_probes.last_image_at as camera_last_image_at',
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
