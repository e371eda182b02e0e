import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * `data_quality_flags` (docs/data-quality.md, "Engine and API"): what the data-quality engine does not
 * believe of a plant's local day, one row per flag. `flag_key` names a flag within its plant and day (signal,
 * reason, start), so that a rerun of the day replaces the unaccepted flags and finds the accepted ones again
 * instead of storing them twice. Times are epoch ms; `detail` is the detector's figures as JSON.
 */
export const dataQualityFlags: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('data_quality_flags'), dialect)
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
      .addColumn('signal_id', 'integer', (c) => c.references('signals.id').onDelete('cascade'))
      .addColumn('reason', 'varchar(40)', (c) => c.notNull())
      // The plant's local date (YYYY-MM-DD) the flag was found in.
      .addColumn('local_day', 'varchar(10)', (c) => c.notNull())
      .addColumn('flag_key', 'varchar(120)', (c) => c.notNull())
      .addColumn('from_ts', 'bigint', (c) => c.notNull())
      .addColumn('to_ts', 'bigint', (c) => c.notNull())
      .addColumn('readings', 'integer', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('detected_at', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint')
      .addColumn('accepted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('accept_note', 'varchar(500)')
      .addUniqueConstraint('data_quality_flags_day_key', ['plant_id', 'local_day', 'flag_key'])
      .execute();
    await db.schema
      .createIndex('data_quality_flags_plant_from_idx')
      .on('data_quality_flags')
      .columns(['plant_id', 'from_ts'])
      .execute();
    await db.schema
      .createIndex('data_quality_flags_device_from_idx')
      .on('data_quality_flags')
      .columns(['device_id', 'from_ts'])
      .execute();
    await db.schema
      .createIndex('data_quality_flags_open_idx')
      .on('data_quality_flags')
      .columns(['accepted_at', 'from_ts'])
      .execute();
  },
};
