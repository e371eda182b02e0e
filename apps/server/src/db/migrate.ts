import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database';
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
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle),
    // Kysely looks for its bookkeeping tables across all schemas unless told which one is ours.
    ...(handle.dialect === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  if (vanishedDuringListing(error, results)) ({ error, results } = await migrator.migrateToLatest());
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
 * Kysely checks for its bookkeeping tables by listing every table of every schema (PostgreSQL); a table
 * another connection drops during that listing fails it with 42P01 before any migration has run. Nothing
 * was applied then, so the listing is simply asked again.
 */
function vanishedDuringListing(error: unknown, results: readonly { status: string }[] | undefined): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '42P01' && !(results ?? []).some((r) => r.status !== 'NotExecuted');
}
