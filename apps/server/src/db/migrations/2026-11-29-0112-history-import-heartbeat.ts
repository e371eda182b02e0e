import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `history_imports.heartbeat_at`: when the node running an import last showed it was alive (epoch ms). A job
 * left `queued` or `running` with a stale heartbeat lost its process, and a starting node takes it over
 * (docs/history-import.md, "A restart during a run"); a fresh one belongs to a live node and is left to it.
 */
export const historyImportHeartbeat: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema.alterTable('history_imports').addColumn('heartbeat_at', 'bigint').execute();
  },
};
