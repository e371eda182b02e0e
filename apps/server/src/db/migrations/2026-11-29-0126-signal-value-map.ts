import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `signals.value_map`: JSON object of a vendor's state values and the console's value each stands for (a
 * register template's `value_map`, docs/vendor-templates.md), applied by the Modbus poller after decoding;
 * null for a signal stored as read.
 */
export const signalValueMap: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema.alterTable('signals').addColumn('value_map', 'text').execute();
  },
};
