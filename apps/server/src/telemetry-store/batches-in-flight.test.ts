import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree, makeUser, save } from '../test/org-fixtures';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../test/test-app';
import { STORE_BATCHES_IN_FLIGHT } from './telemetry-store';

/**
 * PostgreSQL: batches waiting for the rollup lock must not take the connection pool (issue 13, the load
 * suite on PostgreSQL). With the lock held elsewhere, twelve concurrent batches (more than the pool's ten
 * connections) wait, and a read through the same pool still answers at once. Without the limit the read
 * would wait for the lock's release. (The lock's key is database-wide, so waiters of other test processes
 * are not counted; only this app's pool is.)
 */
describe.runIf(TEST_DATABASE_URL)('ingest batches in flight (postgres)', () => {
  let t: TestApp;
  let signalIds: number[] = [];
  let holder: pg.Client;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Pool');
    signalIds = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const s = await save(t, admin.token, '/api/signals/0', {
          device_id: tree.deviceId,
          key: `power_${i}`,
          name: `Power ${i}`,
          unit: 'kW',
        });
        return s.id;
      }),
    );
    holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await t?.close();
  });

  it(`keeps pooled connections free for reads while batches wait for the rollup lock (${STORE_BATCHES_IN_FLIGHT} in flight)`, async () => {
    await holder.query('select pg_advisory_lock(5470001)');
    const ts = Date.now() - 60_000;
    const batches = signalIds.map((signal_id, i) =>
      t.ctx.telemetry.store([{ signal_id, ts: ts + i, value: i }]),
    );
    await new Promise((r) => setTimeout(r, 300));
    // The lock is released after 1.5 s: a read that needs a connection held by a waiting batch waits that long.
    const release = setTimeout(() => void holder.query('select pg_advisory_unlock(5470001)'), 1_500);
    const started = performance.now();
    await t.ctx.db.selectFrom('plants').select('id').execute();
    const readMs = performance.now() - started;
    await Promise.all(batches);
    clearTimeout(release);
    expect(readMs).toBeLessThan(1_000);
    const results = await Promise.all(batches);
    expect(results.map((r) => r.inserted)).toEqual(signalIds.map(() => 1));
  });
});
