import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

/** A migration receives the dialect so that the few dialect differences stay explicit. */
export interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
  down?(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Adds an auto-increment integer primary key `id` in either dialect. */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
