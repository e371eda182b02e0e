import type { Db } from '../../db/database';
import { leftJoinTelemetry } from '../../telemetry-store/queries';

/** What a device's status needs of the device. */
export interface DeviceLink {
  deviceId: number;
  type: string;
  pollIntervalS: number;
  /** Newest sample of any of its active signals; null when it never reported (or has no active signal). */
  lastDataMs: number | null;
  /** A camera's last probe (camera_probes); null when never probed, and for every other device. */
  cameraProbe: { lastImageMs: number | null } | null;
}

/**
 * Every device of the plant, active or not (the single-line diagram draws them all), with its newest
 * sample time and, for a camera, its last probe, in one grouped query.
 */
export async function readPlantDeviceLinks(db: Db, plantId: number): Promise<DeviceLink[]> {
  const rows = await db
    .selectFrom('devices')
    .leftJoin('signals', (join) =>
      join.onRef('signals.device_id', '=', 'devices.id').on('signals.is_active', '=', 1),
    )
    .$call((q) => leftJoinTelemetry(q, 'latest', 'latest', { signal: 'signals.id' }))
    .leftJoin('camera_probes', 'camera_probes.device_id', 'devices.id')
    .select((eb) => [
      'devices.id',
      'devices.type',
      'devices.poll_interval_s',
      'camera_probes.probed_at',
      'camera_probes.last_image_at',
      eb.fn.max('latest.ts').as('last_ts'),
    ])
    .where('devices.plant_id', '=', plantId)
    .groupBy([
      'devices.id',
      'devices.type',
      'devices.poll_interval_s',
      'camera_probes.probed_at',
      'camera_probes.last_image_at',
    ])
    .orderBy('devices.id')
    .execute();
  return rows.map((r) => ({
    deviceId: r.id,
    type: r.type,
    pollIntervalS: r.poll_interval_s,
    lastDataMs: r.last_ts === null || r.last_ts === undefined ? null : Number(r.last_ts),
    // PostgreSQL answers bigint as a string.
    cameraProbe:
      r.type === 'camera' && r.probed_at !== null
        ? { lastImageMs: r.last_image_at === null ? null : Number(r.last_image_at) }
        : null,
  }));
}
