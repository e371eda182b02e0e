import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `plant_budgets`: a plant's P50 energy budget per calendar month, from the design simulation,
 * with the plane-of-array irradiation it assumes where the simulation gives it (the weather-corrected
 * budget scales by measured / budget irradiation). Per year, not a typical year: budgets carry degradation.
 */
export const plantBudgets: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('plant_budgets')
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('month', 'integer', (c) => c.notNull())
      .addColumn('energy_kwh', 'double precision', (c) => c.notNull())
      .addColumn('irradiation_kwh_m2', 'double precision')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('plant_budgets_pk', ['plant_id', 'year', 'month'])
      .execute();
  },
};
