import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/** Users, roles with (page, method) permissions, password resets, dashboard layouts, audit log. */
export const foundation: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('roles'), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('description', 'varchar(500)')
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('role_permissions')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('page', 'varchar(50)', (c) => c.notNull())
      .addColumn('method', 'varchar(20)', (c) => c.notNull())
      .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'page', 'method'])
      .execute();

    await withId(db.schema.createTable('users'), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('surname', 'varchar(100)', (c) => c.notNull())
      .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('telephone', 'varchar(40)', (c) => c.notNull())
      .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('language_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
      .addColumn('tokens_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_role_idx').on('users').column('role_id').execute();

    await db.schema
      .createTable('user_units')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('unit_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('unit_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_units_pk', ['user_id', 'unit_type', 'unit_id'])
      .execute();

    await withId(db.schema.createTable('password_resets'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();

    await db.schema
      .createTable('user_dashboards')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('audit_log'), dialect)
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('action', 'varchar(40)', (c) => c.notNull())
      .addColumn('entity', 'varchar(40)', (c) => c.notNull())
      .addColumn('entity_id', 'integer')
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('ip', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('audit_log_entity_idx')
      .on('audit_log')
      .columns(['entity', 'entity_id'])
      .execute();
    await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  },
};
