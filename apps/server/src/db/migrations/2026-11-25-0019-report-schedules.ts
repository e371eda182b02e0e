import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * `report_schedules`: a user's subscriptions to a report by mail. `next_run_at` is the
 * occurrence being delivered (it fixes the report's period); `due_at` is when the runner next tries it,
 * later than `next_run_at` while a failed send waits for its retry. The runner claims a row by moving
 * `due_at` forward with a conditional update, so two runners never send the same occurrence.
 */
export const reportSchedules: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('report_schedules'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('report_type', 'text', (c) => c.notNull())
      // JSON arrays as text, as elsewhere in the schema.
      .addColumn('plant_ids', 'text', (c) => c.notNull())
      .addColumn('formats', 'text', (c) => c.notNull())
      .addColumn('frequency', 'text', (c) => c.notNull())
      .addColumn('local_time', 'text', (c) => c.notNull())
      .addColumn('weekday', 'integer', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_run_at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_status', 'text')
      .addColumn('last_error', 'text')
      .addColumn('last_sent_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('report_schedules_user').on('report_schedules').column('user_id').execute();
    // The runner's one query: the unpaused rows whose attempt is due.
    await db.schema
      .createIndex('report_schedules_due')
      .on('report_schedules')
      .columns(['is_paused', 'due_at'])
      .execute();
  },
};
