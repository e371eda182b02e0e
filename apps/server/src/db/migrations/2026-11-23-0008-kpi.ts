import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * KPIs. Plants get the two parameters of the expected-power model (PVWatts): the power
 * temperature coefficient γ and the lumped system losses, with PVWatts' defaults. `kpi_daily` keeps each
 * finished local day of a plant as the KPI engine's additive sums (DailyKpiSums), so a month or a year is
 * one indexed read; `kpi_dirty_days` lists the (plant, local date) pairs whose telemetry changed since
 * they were computed, so that a restart still recomputes what late data touched.
 */
export const kpi: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .alterTable('plants')
      .addColumn('temperature_coefficient_per_k', 'double precision', (c) => c.notNull().defaultTo(-0.0037))
      .execute();
    await db.schema
      .alterTable('plants')
      .addColumn('system_loss_fraction', 'double precision', (c) => c.notNull().defaultTo(0.14))
      .execute();

    await db.schema
      .createTable('kpi_daily')
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      // The plant's local date, YYYY-MM-DD: sorts and compares as text in both dialects.
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('energy_kwh', 'double precision')
      .addColumn('energy_source', 'varchar(10)', (c) => c.notNull())
      .addColumn('irradiation_kwh_m2', 'double precision', (c) => c.notNull())
      .addColumn('irradiance_source', 'varchar(12)', (c) => c.notNull())
      .addColumn('expected_energy_kwh', 'double precision', (c) => c.notNull())
      .addColumn('loss_downtime_kwh', 'double precision', (c) => c.notNull())
      .addColumn('loss_communication_gap_kwh', 'double precision', (c) => c.notNull())
      .addColumn('loss_clipping_kwh', 'double precision', (c) => c.notNull())
      .addColumn('loss_grid_curtailment_kwh', 'double precision', (c) => c.notNull())
      .addColumn('loss_underperformance_kwh', 'double precision', (c) => c.notNull())
      .addColumn('pr_energy_kwh', 'double precision', (c) => c.notNull())
      .addColumn('pr_irradiation_kwh_m2', 'double precision', (c) => c.notNull())
      .addColumn('pr_corrected_reference_kwh', 'double precision', (c) => c.notNull())
      .addColumn('available_rated_kw_intervals', 'double precision', (c) => c.notNull())
      .addColumn('assessed_rated_kw_intervals', 'double precision', (c) => c.notNull())
      .addColumn('co2_avoided_kg', 'double precision')
      .addColumn('expected_samples', 'integer', (c) => c.notNull())
      .addColumn('received_samples', 'integer', (c) => c.notNull())
      // The model parameters the row was computed with; a row whose key differs from the plant's is stale.
      .addColumn('params_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('computed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('kpi_daily_pk', ['plant_id', 'date'])
      .execute();

    await db.schema
      .createTable('kpi_dirty_days')
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('marked_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('kpi_dirty_days_pk', ['plant_id', 'date'])
      .execute();
  },
};
