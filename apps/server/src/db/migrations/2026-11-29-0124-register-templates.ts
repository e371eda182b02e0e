import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * `register_templates`: a company's own register-map templates (modules/register-templates), beside the
 * shipped ones in packages/shared. `template` is the JSON file as `registerTemplateSchema` checks it; `slug`
 * is its `id`, unique in the company, and vendor, label and device type are copied out of it for the list.
 */
export const registerTemplates: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('register_templates'), dialect)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('slug', 'varchar(60)', (c) => c.notNull())
      .addColumn('vendor', 'varchar(60)', (c) => c.notNull())
      .addColumn('label', 'varchar(200)', (c) => c.notNull())
      .addColumn('device_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // Epoch ms.
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('register_templates_company_slug', ['company_id', 'slug'])
      .execute();
  },
};
