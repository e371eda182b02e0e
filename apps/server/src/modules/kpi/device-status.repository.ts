import type { Db } from '../../db/database';
import { leftJoinTelemetry } from '../../telemetry-store/queries';

/** What a device's status needs of the device. */
export interface DeviceLink {
  deviceId: number;
  pollIntervalS: number;
  /** Newest sample of any of its active signals; null when it never reported (or has no active signal). */
  lastDataMs: number | null;
}

/**
 * Every device of the plant, active or not (the single-line diagram draws them all), with its newest
 * sample time, in one grouped query.
 */
export async function readPlantDeviceLinks(db: Db, plantId: number): Promise<DeviceLink[]> {
  const rows = await db
    .selectFrom('devices')
    .leftJoin('signals', (join) =>
      join.onRef('signals.device_id', '=', 'devices.id').on('signals.is_active', '=', 1),
    )
    .$call((q) => leftJoinTelemetry(q, 'latest', 'latest', { signal: 'signals.id' }))
    .select((eb) => ['devices.id', 'devices.poll_interval_s', eb.fn.max('latest.ts').as('last_ts')])
    .where('devices.plant_id', '=', plantId)
    .groupBy(['devices.id', 'devices.poll_interval_s'])
    .orderBy('devices.id')
    .execute();
  return rows.map((r) => ({
    deviceId: r.id,
    pollIntervalS: r.poll_interval_s,
    lastDataMs: r.last_ts === null || r.last_ts === undefined ? null : Number(r.last_ts),
  }));
}
