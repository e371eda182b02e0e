import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Each materialised KPI day keeps the energy it left out because a logger replayed a device's day (an open
 * `replayed_day` data-quality flag; docs/kpi.md, "replayed_day"), beside the other excluded energy.
 */
export const kpiReplayedDay: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .alterTable('kpi_daily')
      .addColumn('excluded_replayed_day_kwh', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
