import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * Accounts and sessions after the outside attack of 2026-11-28 (docs/security.md, "Accounts and sessions").
 * - `user_sessions.absolute_expires_at`: the end of a sign-in that no refresh can move (existing rows get
 *   their current expiry, which only ever shortens them).
 * - `user_sessions.token_generation` and `previous_valid_until`: each refresh issues generation n + 1 and
 *   retires generation n, which is still accepted until `previous_valid_until` (a short grace for other tabs).
 * - `users.email_confirmed_at`: when the address was proven to reach the user. Existing rows (and so the demo
 *   accounts) count as confirmed from the migration on; users created later start unconfirmed.
 * - `email_changes`: a pending new address with the SHA-256 of its single-use link.
 */
export const sessionLifetimeEmailConfirmation: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .alterTable('user_sessions')
      .addColumn('absolute_expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('user_sessions')
      .addColumn('token_generation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('user_sessions').addColumn('previous_valid_until', 'bigint').execute();
    await sql`update user_sessions set absolute_expires_at = expires_at`.execute(db);

    await db.schema.alterTable('users').addColumn('email_confirmed_at', 'bigint').execute();
    await sql`update users set email_confirmed_at = updated_at`.execute(db);

    await withId(db.schema.createTable('email_changes'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('new_email', 'varchar(254)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
  },
};
