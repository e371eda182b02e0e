import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Telemetry collectors. `device_status` holds each polled device's communication state, which
 * the alarms raise "communication loss" from; a row goes when its device does. Signals learn SunSpec
 * scaling: the value of a SunSpec point is raw × 10^sf × scale with sf read from a separate sunssf
 * register (`scale_factor_address`, same register type and unit id as the signal), and `sunspec_type`
 * keeps the standard's point type so that its not-implemented values (acc32 0, int16 0x8000…) decode to
 * no value instead of a number.
 */
export const collectors: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('device_status')
      .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
      .addColumn('comm_state', 'varchar(10)', (c) => c.notNull())
      .addColumn('missed_polls', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_ok_at', 'bigint')
      .addColumn('last_error', 'varchar(500)')
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('signals').addColumn('scale_factor_address', 'integer').execute();
    await db.schema.alterTable('signals').addColumn('sunspec_type', 'varchar(20)').execute();
  },
};
