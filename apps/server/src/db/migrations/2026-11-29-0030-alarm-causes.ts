import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Alarms of one event (docs/architecture.md, "Alarm groups"): an alarm raised while another is active on
 * its own device or a device above it, and not long after it, records that alarm as its cause. Null for
 * an alarm that is its own cause; an alarm removed with its plant leaves its consequences uncaused.
 */
export const alarmCauses: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .alterTable('alarms')
      .addColumn('cause_alarm_id', 'integer', (c) => c.references('alarms.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('alarms_cause_idx').on('alarms').column('cause_alarm_id').execute();
  },
};
