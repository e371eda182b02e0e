import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Two system settings of the admin panel that do not fit a JSON row of `system_settings`:
 * - `site_logo`: the site's logo image, in the database so that every node serves it (no local files).
 *   One row at most (id 1); `etag` is a hash of the bytes, so a cached logo is revalidated without them.
 * - `co2_factor_overrides`: the admin's grid emission factors by country (ISO 3166-1 alpha-2, or
 *   DEFAULT), which win over the built-in table (modules/kpi/engine/co2.ts).
 */
export const siteLogoCo2Factors: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .createTable('site_logo')
      .addColumn('id', 'integer', (c) => c.primaryKey().notNull())
      .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('etag', 'varchar(64)', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('co2_factor_overrides')
      .addColumn('country', 'varchar(8)', (c) => c.primaryKey().notNull())
      .addColumn('kg_per_kwh', 'double precision', (c) => c.notNull())
      .addColumn('year', 'integer', (c) => c.notNull())
      .addColumn('source', 'varchar(300)', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
