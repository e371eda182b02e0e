import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { ROLLUP_TABLES } from './2026-11-23-0004-telemetry';
import type { DialectMigration } from './helpers';

/**
 * Energy that is never wrong (docs/kpi.md, "Excluded energy"). Each counter rollup keeps, beside the
 * energy it believes (`delta`), what the counter claimed beyond what its device could produce in the
 * elapsed time (`rejected_delta`, telemetry-store/aggregate.ts): null for gauges and for buckets written
 * before the bound existed. Each materialised KPI day keeps the energy it excluded, per reason, so a
 * month's or year's answer can sum it like any other figure.
 */
export const excludedEnergy: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    for (const table of ROLLUP_TABLES)
      await db.schema.alterTable(table).addColumn('rejected_delta', 'double precision').execute();
    await db.schema
      .alterTable('kpi_daily')
      .addColumn('excluded_counter_jump_kwh', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('kpi_daily')
      .addColumn('excluded_day_energy_impossible_kwh', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
