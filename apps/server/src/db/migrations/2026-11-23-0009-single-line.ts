import type { Kysely } from 'kysely';
import type { DialectMigration } from './helpers';

/**
 * Saved positions of the single-line diagram's nodes, per plant and node id (`grid`,
 * `busbar:…`, `device:<id>`; see packages/shared/src/topology.ts). Node ids are not foreign keys because
 * the grid and busbars are not rows; positions of nodes that no longer exist are simply not answered.
 * They go with their plant.
 */
export const singleLine: DialectMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('single_line_positions')
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('node_id', 'varchar(100)', (c) => c.notNull())
      .addColumn('x_px', 'double precision', (c) => c.notNull())
      .addColumn('y_px', 'double precision', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('single_line_positions_pk', ['plant_id', 'node_id'])
      .execute();
  },
};
