import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `edge_agents`: the latest health report of each plant-side edge agent (modules/edge, docs/edge.md). One
 * row per (plant, agent_id), replaced by every report. `last_report_at` is the console's clock when the
 * report arrived, so a silent agent is judged on one clock whatever the agent's says; `clock_offset_ms` is
 * the agent's clock minus the console's. `clock_flag_from` is when the current stretch of an offset beyond
 * the bound began (its data-quality flags' start), null while the offset is within it.
 */
export const edgeAgents: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('edge_agents')
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('agent_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('version', 'varchar(40)', (c) => c.notNull())
      .addColumn('last_report_at', 'bigint', (c) => c.notNull())
      .addColumn('clock_offset_ms', 'bigint', (c) => c.notNull())
      .addColumn('queue_depth', 'integer', (c) => c.notNull())
      .addColumn('oldest_unsent_at', 'bigint')
      .addColumn('last_sent_at', 'bigint')
      .addColumn('dropped_total', 'bigint', (c) => c.notNull())
      .addColumn('poll_failures', 'bigint', (c) => c.notNull())
      .addColumn('uptime_s', 'bigint', (c) => c.notNull())
      .addColumn('clock_flag_from', 'bigint')
      .addPrimaryKeyConstraint('edge_agents_pk', ['plant_id', 'agent_id'])
      .execute();
  },
};
