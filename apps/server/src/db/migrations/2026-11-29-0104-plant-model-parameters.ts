import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `plant_model_parameters`: a plant's expected-power parameters with their origin (a design report or a fit
 * on the plant's clear days; no row means the defaults on the plant), the fit's uncertainty and window, who
 * set them and when, and the cleaning cost and energy price the soiling payback needs (docs/performance.md).
 */
export const plantModelParameters: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('plant_model_parameters')
      .addColumn('plant_id', 'integer', (c) => c.primaryKey().references('plants.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('system_loss_fraction', 'double precision', (c) => c.notNull())
      .addColumn('temperature_coefficient_per_k', 'double precision', (c) => c.notNull())
      .addColumn('system_loss_fraction_se', 'double precision')
      .addColumn('temperature_coefficient_per_k_se', 'double precision')
      .addColumn('loss_factors', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('inverter_efficiency', 'double precision')
      .addColumn('ac_limit_kw', 'double precision')
      .addColumn('fitted_from', 'text')
      .addColumn('fitted_to', 'text')
      .addColumn('fit_days', 'integer')
      .addColumn('fit_rmse_kwh', 'double precision')
      .addColumn('cleaning_cost', 'double precision')
      .addColumn('energy_price_per_kwh', 'double precision')
      .addColumn('currency', 'text')
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
