import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Migration,
  type MigrationProvider,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import type { DatabaseHandle, Db } from './database';
import { migrations } from './migrations';

/** Migrations are compiled into the bundle, so the provider is a static map (append-only). */
class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly handle: DatabaseHandle) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(
      Object.fromEntries(
        Object.entries(migrations).map(([name, m]) => [
          name,
          {
            up: (db) => m.up(db, this.handle.dialect),
            down: m.down && ((db) => m.down!(db, this.handle.dialect)),
          },
        ]),
      ),
    );
  }
}

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(handle: DatabaseHandle, schema?: string): Promise<string[]> {
  const scoped = handle.dialect === 'postgres' && schema;
  const migrator = new Migrator({
    db: scoped ? withIntrospectionOf(handle.db, schema) : handle.db,
    provider: new StaticMigrationProvider(handle),
    ...(scoped ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The database handle as the migrator sees it: the same connections, but its look for the bookkeeping
 * tables stays inside our own schema. Kysely's PostgreSQL introspector lists every table of every schema and
 * resolves each one's name again while listing, so a table that any other connection drops meanwhile (the
 * retention job dropping an old telemetry partition on another node, another tenant's schema) fails the
 * start with 42P01 before a migration has run. `pg_tables` filtered by schema resolves no names.
 */
function withIntrospectionOf(db: Db, schema: string): Db {
  const introspector = new SchemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspector;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely keeps its state in private fields, which only the real instance can read.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The tables (names only: all the migrator asks) and the schema itself, of one PostgreSQL schema. */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Db,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select tablename as name from pg_catalog.pg_tables where schemaname = ${this.schema}`.execute(this.db);
    return rows.map(({ name }) => ({ name, schema: this.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
