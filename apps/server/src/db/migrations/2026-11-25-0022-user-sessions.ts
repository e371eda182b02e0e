import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `user_sessions` (admin panel "Sessions"): one row per sign-in, named by the `sid` claim of its
 * tokens. `token_version` is the user's version at sign-in: a password change or a "revoke all sessions"
 * raises the user's version and so ends every row below it without touching them. `last_seen_at` is
 * written at most once a minute per session, so that a request costs no write.
 */
export const userSessions: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('user_sessions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey().notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)')
      .addColumn('user_agent', 'varchar(300)')
      .execute();
    await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();
    await db.schema.createIndex('user_sessions_expires').on('user_sessions').column('expires_at').execute();
  },
};
