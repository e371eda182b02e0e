import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * Faults (arıza): work items followed from an approved alarm or a manual report to their fix.
 * `alarm_id` is unique (one fault per alarm; several nulls are allowed in both dialects) and carries no
 * foreign key, so that the alarm history can be pruned without touching the faults made from it. A
 * fault keeps its plant (restrict: a plant with faults is not deleted); a deleted device or signal only
 * clears the reference. Comments and the status history go with their fault.
 */
export const faults: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('faults'), dialect)
      .addColumn('alarm_id', 'integer', (c) => c.unique())
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id'))
      .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('set null'))
      .addColumn('tag_id', 'integer', (c) => c.references('signals.id').onDelete('set null'))
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('description', 'varchar(4000)')
      .addColumn('priority_id', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('assignee_user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('root_cause', 'varchar(2000)')
      .addColumn('resolution', 'varchar(2000)')
      .addColumn('created_by', 'integer', (c) => c.references('users.id'))
      // When the problem began: the alarm's start, or the creation time of a fault made by hand.
      .addColumn('detected_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('acknowledged_at', 'bigint')
      .addColumn('resolved_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('faults_plant_idx').on('faults').column('plant_id').execute();
    await db.schema.createIndex('faults_status_idx').on('faults').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('faults_created_idx').on('faults').column('created_at').execute();
    await db.schema.createIndex('faults_assignee_idx').on('faults').column('assignee_user_id').execute();

    await withId(db.schema.createTable('fault_comments'), dialect)
      .addColumn('fault_id', 'integer', (c) => c.notNull().references('faults.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('body', 'varchar(4000)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fault_comments_fault_idx').on('fault_comments').column('fault_id').execute();

    await withId(db.schema.createTable('fault_status_history'), dialect)
      .addColumn('fault_id', 'integer', (c) => c.notNull().references('faults.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      // Null on the first row: the fault was created in `to_status`.
      .addColumn('from_status', 'varchar(20)')
      .addColumn('to_status', 'varchar(20)', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('fault_status_history_fault_idx')
      .on('fault_status_history')
      .column('fault_id')
      .execute();
  },
};
