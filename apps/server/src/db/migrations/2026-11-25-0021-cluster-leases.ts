import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `cluster_leases` (several nodes, docs/operations.md): one row per singleton job group (the alarm engine,
 * scheduled reports, retention, KPI refresh). A node holds a lease while `expires_at` (epoch ms) lies ahead
 * and renews it; `generation` grows by one at each change of holder, so a takeover can be counted and seen.
 */
export const clusterLeases: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('cluster_leases')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey().notNull())
      .addColumn('holder', 'varchar(200)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('acquired_at', 'bigint', (c) => c.notNull())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .execute();
  },
};
