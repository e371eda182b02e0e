import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import type { DialectMigration } from './helpers';

/**
 * `system_settings` (admin panel): the settings an administrator changes without a restart, one
 * row per setting with its value as JSON. A row per key, not one document: a setting added later needs no
 * migration, and a stored value that a later build no longer accepts falls back to its default alone.
 */
export const systemSettings: DialectMigration = {
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('system_settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey().notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
