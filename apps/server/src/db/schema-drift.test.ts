import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialectUnderTest, underSchemaLock, type TestApp } from '../test/test-app';
import { isRawPartition } from '../telemetry-store/retention.repository';
import { schemaColumns } from './schema-columns';

/** `table.column: null | not null`, one line each, sorted: a failure shows exactly what differs. */
type Description = Record<string, Record<string, 'null' | 'not null'>>;
const lines = (description: Description) =>
  Object.entries(description)
    .flatMap(([table, columns]) => Object.entries(columns).map(([column, n]) => `${table}.${column}: ${n}`))
    .sort();

describe(`db/schema.ts against the migrated database (${dialectUnderTest})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // A fresh database that only the migrations have touched (no demo data is needed for its shape).
    t = await createTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('has the tables and columns, with the nullability, that schema.ts declares', async () => {
    const ours = t.ctx.config.database.dialect === 'postgres' ? t.ctx.config.database.schema : undefined;
    // PostgreSQL introspection lists every schema's tables (other test workers' too): keep this app's own,
    // and look under the harness's schema lock, or a schema dropped meanwhile fails the look.
    const tables = (await underSchemaLock(() => t.ctx.db.introspection.getTables())).filter(
      // telemetry_raw's monthly partitions (PostgreSQL, migration 0016) are telemetry_raw's columns again.
      (table) =>
        !table.isView && !isRawPartition(table.name) && (ours === undefined || table.schema === ours),
    );
    const migrated: Description = {};
    for (const table of tables) {
      migrated[table.name] = Object.fromEntries(
        table.columns.map((c) => [
          c.name,
          // SQLite reports an INTEGER PRIMARY KEY as nullable although it can never hold null.
          c.isNullable && !c.isAutoIncrementing ? 'null' : 'not null',
        ]),
      );
    }
    expect(lines(migrated)).toEqual(lines(schemaColumns));
  });
});
