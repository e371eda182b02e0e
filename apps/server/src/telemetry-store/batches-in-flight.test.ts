import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree, makeUser, save } from '../test/org-fixtures';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../test/test-app';
import { STORE_BATCHES_IN_FLIGHT } from './telemetry-store';
import { lockRollups, ROLLUP_DEVICE_LOCKS_MAX, ROLLUP_LOCK_KEY } from './telemetry-store.repository';

/**
 * PostgreSQL: batches waiting for the rollup lock must not take the connection pool (the load suite of
 * e2e/resilience on PostgreSQL ran out of connections). With the lock held elsewhere, twelve concurrent
 * batches (more than the pool's ten connections) wait, and a read through the same pool still answers at
 * once. Without the limit the read would wait for the lock's release. (The lock's key is database-wide, so
 * waiters of other test processes are not counted; only this app's pool is.)
 */
describe.runIf(TEST_DATABASE_URL)('ingest batches in flight (postgres)', () => {
  let t: TestApp;
  let signalIds: number[] = [];
  /** A second device's signal: its rollups have a lock of their own. */
  let otherDevice: { deviceId: number; signalId: number };
  let deviceId: number;
  let holder: pg.Client;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Pool');
    deviceId = tree.deviceId;
    otherDevice = await makeTree(t, admin.token, 'Other');
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
    await holder.query(`select pg_advisory_lock(${ROLLUP_LOCK_KEY}::bigint)`);
    const ts = Date.now() - 60_000;
    const batches = signalIds.map((signal_id, i) =>
      t.ctx.telemetry.store([{ signal_id, ts: ts + i, value: i }]),
    );
    await new Promise((r) => setTimeout(r, 300));
    // The lock is released after 1.5 s: a read that needs a connection held by a waiting batch waits that long.
    const release = setTimeout(
      () => void holder.query(`select pg_advisory_unlock(${ROLLUP_LOCK_KEY}::bigint)`),
      1_500,
    );
    const started = performance.now();
    await t.ctx.db.selectFrom('plants').select('id').execute();
    const readMs = performance.now() - started;
    await Promise.all(batches);
    clearTimeout(release);
    expect(readMs).toBeLessThan(1_000);
    const results = await Promise.all(batches);
    expect(results.map((r) => r.inserted)).toEqual(signalIds.map(() => 1));
  });

  it('locks rollups per device: a batch of another device goes on while one device is held, its own waits', async () => {
    const held = performance.now();
    await holder.query('begin');
    await holder.query(`select pg_advisory_xact_lock_shared(${ROLLUP_LOCK_KEY}::bigint)`);
    await holder.query(`select pg_advisory_xact_lock(${ROLLUP_LOCK_KEY}, ${deviceId})`);
    let sameDone = 0;
    const ts = Date.now() - 30_000;
    const same = t.ctx.telemetry
      .store([{ signal_id: signalIds[0]!, ts, value: 1 }])
      .then((r) => ((sameDone = performance.now()), r));
    const other = await t.ctx.telemetry.store([{ signal_id: otherDevice.signalId, ts, value: 2 }]);
    const otherMs = performance.now() - held;
    await new Promise((r) => setTimeout(r, 500));
    expect(sameDone).toBe(0);
    await holder.query('commit');
    expect((await same).inserted).toBe(1);
    expect(other.inserted).toBe(1);
    expect(otherMs).toBeLessThan(500);
  });

  it(`takes every device's rollups at once for a batch of more than ${ROLLUP_DEVICE_LOCKS_MAX} devices`, async () => {
    await holder.query('begin');
    await holder.query(`select pg_advisory_xact_lock_shared(${ROLLUP_LOCK_KEY}::bigint)`);
    const ids = Array.from({ length: ROLLUP_DEVICE_LOCKS_MAX + 1 }, (_, i) => 1_000_000 + i);
    let locked = false;
    const fleet = t.ctx.db.transaction().execute(async (trx) => {
      await lockRollups(trx, ids);
      locked = true;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks
        where locktype = 'advisory' and pid = pg_backend_pid()`.execute(trx);
      return rows[0]!.n;
    });
    await new Promise((r) => setTimeout(r, 300));
    // Exclusive on the all-rollups key: it waits for the batch holding it shared.
    expect(locked).toBe(false);
    await holder.query('commit');
    // One lock, not one per device.
    expect(await fleet).toBe(1);
  });
});
