import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `devices.serial_path`: the serial port a `modbus_rtu` device hangs on (/dev/ttyUSB0); null for one reached
 * through an RTU-over-TCP gateway, whose address is `ip` and `port` as for Modbus TCP.
 */
export const deviceSerialPath: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema.alterTable('devices').addColumn('serial_path', 'text').execute();
  },
};
