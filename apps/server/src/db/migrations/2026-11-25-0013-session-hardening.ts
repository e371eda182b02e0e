import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * Holes 1, 3 and 4 of docs/security.md.
 * - `users.token_version`: every session token carries the version it was issued under; a password change,
 *   a reset or a deactivation raises it, so no token issued before survives, even in the same second
 *   (`tokens_valid_after` compares whole seconds).
 * - `attempt_counts`: sign-in and reset-request attempts per key (IP, email, device cookie) in a fixed
 *   window, counted by one atomic upsert so that parallel attempts, and later several nodes, cannot slip
 *   past the limit.
 */
export const sessionHardening: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .alterTable('users')
      .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('attempt_counts')
      .addColumn('key', 'varchar(300)', (c) => c.primaryKey().notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('attempt_counts_window')
      .on('attempt_counts')
      .column('window_started_at')
      .execute();
  },
};
