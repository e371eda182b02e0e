import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../test/test-app';
import { openDatabase, type DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';

/**
 * A server starting while another connection drops tables (the retention job dropping an old telemetry
 * partition on another node, another schema's owner) must still start: the migrator's look for its
 * bookkeeping tables stays inside the server's own schema. Only PostgreSQL has schemas.
 */
describe.skipIf(!TEST_DATABASE_URL)('migrations while other schemas drop tables (postgres)', () => {
  let t: TestApp;
  let handle: DatabaseHandle;
  const churnSchema = `churn_${process.pid}_${Date.now()}`;
  const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });

  beforeAll(async () => {
    t = await createTestApp({ demo: false });
    handle = openDatabase(t.ctx.config.database);
    await churn.connect();
    await churn.query(`create schema "${churnSchema}"`);
  });
  const ownSchema = () => {
    const database = t.ctx.config.database;
    return database.dialect === 'postgres' ? database.schema : undefined;
  };
  afterAll(async () => {
    await churn.query(`drop schema if exists "${churnSchema}" cascade`).catch(() => undefined);
    await churn.end();
    await handle.close();
    await t.close();
  });

  it('runs (finding nothing to do) every time while tables come and go in another schema', async () => {
    // Wide tables: the all-schema listing resolves a table's name again for each of its columns, which is
    // the moment a concurrent drop hits.
    const columns = Array.from({ length: 400 }, (_, i) => `c${i} int`).join(', ');
    let churning = true;
    let cycles = 0;
    const churnLoop = (async () => {
      while (churning) {
        await churn.query(`create table "${churnSchema}".wide (${columns})`);
        await churn.query(`drop table "${churnSchema}".wide`);
        cycles += 1;
      }
    })();
    const failures: string[] = [];
    try {
      for (let run = 0; run < 60; run += 1) {
        const applied = await migrateToLatest(handle, ownSchema()).catch((error: unknown) => {
          failures.push(String(error));
          return [];
        });
        expect(applied).toEqual([]);
      }
    } finally {
      churning = false;
      await churnLoop;
    }
    expect(cycles).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  }, 60_000);
});
