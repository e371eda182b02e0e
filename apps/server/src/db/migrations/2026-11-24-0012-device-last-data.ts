import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `device_last_data`: each device's newest stored sample time, kept by the telemetry store in the same
 * transaction as telemetry_latest. The fleet overview decides every plant's communication from it: one row
 * per device instead of a join over every signal's latest value (212,000 signals on a 2,000-plant fleet
 * took 0.8 s). Filled here from what telemetry_latest already holds.
 *
 * Indexes for the same reads: kpi_daily by date (every plant's yesterday; the primary key leads with the
 * plant), devices by type (the fleet's meters or stations without visiting its 40,000 inverters), and the
 * active alarms by plant, priority and source (partial: the cleared ones are almost all of the table).
 */
export const deviceLastData: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('device_last_data')
      .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .execute();
    await sql`
      insert into device_last_data (device_id, ts)
      select s.device_id, max(l.ts) from telemetry_latest l
      join signals s on s.id = l.signal_id
      join devices d on d.id = s.device_id
      group by s.device_id
    `.execute(db);
    await db.schema.createIndex('kpi_daily_date').on('kpi_daily').column('date').execute();
    await db.schema
      .createIndex('devices_type_plant')
      .on('devices')
      .columns(['type', 'plant_id', 'is_active', 'rated_power_kw'])
      .execute();
    await db.schema
      .createIndex('alarms_active_counts')
      .on('alarms')
      .columns(['plant_id', 'priority_id', 'source'])
      .where(sql.ref('active_key'), 'is not', null)
      .execute();
  },
};
