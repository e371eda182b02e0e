import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Data that can be trusted. Signals get optional validity bounds: a value below `min_value` or
 * above `max_value` is refused at ingest (null: the unit's default, packages/shared signal-bounds.ts).
 * `device_ingest_counts` keeps, per device, how many points were refused for each reason and how many
 * were duplicates (identical or conflicting), and when it last happened; a row goes when its device does.
 */
export const signalBounds: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema.alterTable('signals').addColumn('min_value', 'double precision').execute();
    await db.schema.alterTable('signals').addColumn('max_value', 'double precision').execute();
    await db.schema
      .createTable('device_ingest_counts')
      .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
      .addColumn('reason', 'varchar(40)', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addColumn('last_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('device_ingest_counts_pk', ['device_id', 'reason'])
      .execute();
  },
};
