import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * Alarms. `alarms.active_key` holds the condition key while the condition holds and is null
 * after it clears; its unique index makes one condition raise one alarm until it clears, whatever the
 * alarm's status (an alarm approved while its condition still holds keeps the key). `condition_key`
 * keeps the key for history. `alarm_events` is the append-only change log whose id is the
 * `alarms/listen` cursor. `custom_alarms` are the user-defined rules.
 */
export const alarms: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('custom_alarms'), dialect)
      .addColumn('tag_id', 'integer', (c) => c.notNull().references('signals.id').onDelete('cascade'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('description', 'varchar(1000)')
      .addColumn('priority_id', 'integer', (c) => c.notNull())
      .addColumn('operant', 'varchar(2)', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('end_at', 'bigint')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('on_delay_s', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('off_delay_s', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('hysteresis', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('custom_alarms_tag').on('custom_alarms').column('tag_id').execute();

    await withId(db.schema.createTable('alarms'), dialect)
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
      .addColumn('tag_id', 'integer', (c) => c.references('signals.id').onDelete('set null'))
      .addColumn('source', 'varchar(30)', (c) => c.notNull())
      .addColumn('rule_id', 'integer', (c) => c.references('custom_alarms.id').onDelete('set null'))
      .addColumn('condition_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('active_key', 'varchar(200)')
      .addColumn('priority_id', 'integer', (c) => c.notNull())
      .addColumn('message', 'varchar(100)', (c) => c.notNull())
      .addColumn('message_params', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('status_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('cleared_at', 'bigint')
      .addColumn('approved_at', 'bigint')
      .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('rejected_at', 'bigint')
      .addColumn('rejected_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('fault_id', 'integer')
      .execute();
    await db.schema.createIndex('alarms_active_key').on('alarms').column('active_key').unique().execute();
    await db.schema.createIndex('alarms_started').on('alarms').column('started_at').execute();
    await db.schema
      .createIndex('alarms_plant_started')
      .on('alarms')
      .columns(['plant_id', 'started_at'])
      .execute();
    await db.schema.createIndex('alarms_status').on('alarms').columns(['status_id', 'started_at']).execute();
    await db.schema.createIndex('alarms_device').on('alarms').column('device_id').execute();

    await withId(db.schema.createTable('alarm_events'), dialect)
      .addColumn('alarm_id', 'integer', (c) => c.notNull().references('alarms.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(10)', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alarm_events_alarm').on('alarm_events').column('alarm_id').execute();
  },
};
