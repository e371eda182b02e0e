import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { withId, type DialectMigration } from './helpers';

/**
 * `history_imports`: files of history from other systems (modules/history-import), kept from the upload
 * until the import has run, with what was detected, the mapping chosen and the background job's progress.
 * The file itself is kept so that the preview and the run read exactly what was uploaded.
 */
export const historyImports: DialectMigration = {
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('history_imports'), dialect)
      .addColumn('plant_id', 'integer', (c) => c.notNull().references('plants.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('file_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('format', 'varchar(8)', (c) => c.notNull())
      .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      // JSON: the detection (historyFileDetection) and the mapping of the last preview or the run.
      .addColumn('detection', 'text', (c) => c.notNull())
      .addColumn('mapping', 'text')
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('points_total', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('points_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('points_new', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('points_existing', 'bigint', (c) => c.notNull().defaultTo(0))
      // JSON array of message keys.
      .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
      // Epoch ms.
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('history_imports_plant')
      .on('history_imports')
      .columns(['plant_id', 'created_at'])
      .execute();
  },
};
