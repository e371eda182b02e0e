import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `camera_probes`: what the camera probe (modules/cameras/camera-probe.ts) last learnt of each camera. A
 * camera sends no telemetry, so without it the one status rule called every camera offline; with it a
 * camera is online while it answered the probe with an image lately (modules/kpi/engine/status.ts). One row
 * per probed camera; a camera never probed has none (its state is unknown, not offline).
 */
export const cameraProbes: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('camera_probes')
      .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
      // Epoch ms of the last probe that got an image; null while none has.
      .addColumn('last_image_at', 'bigint')
      // Epoch ms of the last probe, whatever it got.
      .addColumn('probed_at', 'bigint', (c) => c.notNull())
      // Why the last probe got no image (for the log and the health page); null after an image.
      .addColumn('last_error', 'varchar(500)')
      .execute();
  },
};
