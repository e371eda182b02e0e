import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWriterGate } from '../db/sqlite-writer-gate';
import { startWalCheckpointer } from '../db/wal-checkpointer';
import { makeTree, makeUser, save } from '../test/org-fixtures';
import { createTestApp, TEST_DATABASE_URL, type TestApp } from '../test/test-app';
import { startBatchWriter } from './batch-writer';
import { loadSignalMeta } from './telemetry-store.repository';
import type { StoredPoint } from './telemetry-hub';

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** SQLite file databases write telemetry batches on a thread of their own (batch-writer.ts). */
describe.skipIf(TEST_DATABASE_URL)('the telemetry writer thread (sqlite)', () => {
  let t: TestApp;
  let signalIds: number[];
  let deviceId: number;
  const base = Date.now() - 3_600_000;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Writer');
    deviceId = tree.deviceId;
    signalIds = [];
    for (const key of ['power_a', 'power_b']) {
      const s = await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key,
        name: key,
        unit: 'kW',
      });
      signalIds.push(s.id);
    }
  });
  afterAll(() => t?.close());

  const rawCount = async () =>
    (
      await t.ctx.db
        .selectFrom('telemetry_raw')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('signal_id', 'in', signalIds)
        .executeTakeFirstOrThrow()
    ).n;

  it('writes a batch on the thread; the caller sees it stored, with its counts, as soon as store answers', async () => {
    const writer = t.telemetryWriter!;
    expect(writer.running()).toBe(true);
    const before = writer.written();
    const heard: (readonly StoredPoint[])[] = [];
    const off = t.ctx.telemetry.onStored((points) => heard.push(points));
    const points = Array.from({ length: 600 }, (_, i) => ({
      signal_id: signalIds[i % 2]!,
      ts: base + Math.floor(i / 2) * 1_000,
      value: i,
    }));
    try {
      const first = await t.ctx.telemetry.store(points);
      expect(first).toEqual({ inserted: 600, duplicates: 0, conflicting: 0 });
      expect(writer.written()).toBe(before + 1);
      // Read on the main connection right after the answer: committed.
      expect(await rawCount()).toBe(600);
      const rollup = await t.ctx.db
        .selectFrom('telemetry_5m')
        .select((eb) => [eb.fn.sum<number>('count').as('n'), eb.fn.sum<number>('sum').as('sum')])
        .where('signal_id', '=', signalIds[0]!)
        .executeTakeFirstOrThrow();
      expect(Number(rollup.n)).toBe(300);
      expect(Number(rollup.sum)).toBe(points.filter((_, i) => i % 2 === 0).reduce((a, p) => a + p.value, 0));

      // The same points again, one of them with another value, and two new ones.
      const again = points.slice(0, 10).map((p, i) => (i === 3 ? { ...p, value: -1 } : p));
      const extra = [
        { signal_id: signalIds[0]!, ts: base + 900_000, value: 1 },
        { signal_id: signalIds[1]!, ts: base + 900_000, value: 2 },
      ];
      const second = await t.ctx.telemetry.store([...again, ...extra]);
      expect(second).toEqual({ inserted: 2, duplicates: 10, conflicting: 1 });
      expect(writer.written()).toBe(before + 2);
      // The listeners hear exactly the inserted points, with their device.
      expect(heard.map((batch) => batch.length)).toEqual([600, 2]);
      expect(heard[1]!.map((p) => [p.signal_id, p.ts, p.value, p.device_id])).toEqual(
        extra.map((p) => [p.signal_id, p.ts, p.value, deviceId]),
      );
    } finally {
      off();
    }
  });

  it('answers a failed transaction with the database’s own error code, and rolls it back', async () => {
    // A value the store's callers never pass (they refuse non-finite values): SQLite binds NaN as NULL,
    // and the raw table's NOT NULL fails inside the thread's transaction, after the first point went in.
    const failed = t.ctx.telemetry.store([
      { signal_id: signalIds[0]!, ts: base + 940_000, value: 4 },
      { signal_id: signalIds[0]!, ts: base + 941_000, value: Number.NaN },
    ]);
    await expect(failed).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    const kept = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select('ts')
      .where('signal_id', '=', signalIds[0]!)
      .where('ts', '>=', base + 940_000)
      .where('ts', '<', base + 942_000)
      .execute();
    expect(kept).toEqual([]);
    // The thread goes on.
    expect(t.telemetryWriter!.running()).toBe(true);
    const ok = await t.ctx.telemetry.store([{ signal_id: signalIds[0]!, ts: base + 950_000, value: 5 }]);
    expect(ok.inserted).toBe(1);
  });

  it('lets a main-connection transaction that reads, waits and then writes commit beside the thread', async () => {
    // A deferred transaction would read, see the thread commit a batch, and fail its write at once with
    // SQLITE_BUSY_SNAPSHOT; Kysely's transactions on the main connection begin immediate.
    const writes = t.ctx.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('telemetry_latest').select('ts').execute();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sql`update telemetry_latest set value = value where signal_id = ${signalIds[0]!}`.execute(trx);
      return before.length;
    });
    // Meanwhile the thread writes a batch (it waits for the main connection's lock, then commits).
    const batch = t.ctx.telemetry.store([{ signal_id: signalIds[1]!, ts: base + 960_000, value: 3 }]);
    await expect(writes).resolves.toBeGreaterThan(0);
    await expect(batch).resolves.toMatchObject({ inserted: 1 });
  });

  it('lets the main connection write at once during sustained ingest', { timeout: 30_000 }, async () => {
    const writer = t.telemetryWriter!;
    const before = writer.written();
    // Forty batches of 2,500 points handed to the thread at once: it begins each as it ends the last,
    // with well under a millisecond between two, as under a backlog replay near the storage limit.
    const meta = await loadSignalMeta(t.ctx.db, 'sqlite', signalIds);
    const start = base - 30 * 86_400_000;
    const batches = Array.from({ length: 40 }, (_, n) =>
      writer.write(
        Array.from({ length: 2_500 }, (_, i) => ({
          signal_id: signalIds[i % 2]!,
          ts: start + n * 1_250_000 + Math.floor(i / 2) * 1_000,
          value: i,
        })),
        meta,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Main-connection writes (a transaction, as the services' writes are, and one on its own) meanwhile.
    const waits: number[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        await t.ctx.db.transaction().execute(async (trx) => {
          await sql`update telemetry_latest set value = value where signal_id = ${signalIds[0]!}`.execute(
            trx,
          );
        });
        await sql`update telemetry_latest set value = value where signal_id = ${signalIds[1]!}`.execute(
          t.ctx.db,
        );
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await Promise.all(batches.map((batch) => batch!));
    }
    // The thread was busy all along, and no main write failed (SQLITE_BUSY after 100 ms in the busy
    // handler, which is what happens without the turn taking). Each waited, without blocking the event
    // loop, for the batch in progress: 0.3-12 ms, once 65 ms, in three runs.
    expect(writer.written() - before).toBeGreaterThan(20);
    expect(Math.max(...waits)).toBeLessThan(1_000);
  });

  it('writes on the event loop again once the thread has died', async () => {
    const writer = t.telemetryWriter!;
    await writer.thread.terminate();
    await until(() => !writer.running());
    const written = writer.written();
    const result = await t.ctx.telemetry.store([
      { signal_id: signalIds[0]!, ts: base + 970_000, value: 7 },
      { signal_id: signalIds[1]!, ts: base + 970_000, value: 8 },
    ]);
    expect(result.inserted).toBe(2);
    expect(writer.written()).toBe(written);
    const stored = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select('value')
      .where('ts', '=', base + 970_000)
      .where('signal_id', 'in', signalIds)
      .orderBy('signal_id')
      .execute();
    expect(stored.map((r) => r.value)).toEqual([7, 8]);
  });
});

describe.skipIf(TEST_DATABASE_URL)('SQLITE_WRITER_THREAD=false (sqlite)', () => {
  it('starts no writer thread and writes the batches on the event loop', async () => {
    const t = await createTestApp({ sqliteWriterThread: false });
    try {
      expect(t.telemetryWriter).toBeUndefined();
      const admin = await makeUser(t, { admin: true });
      const tree = await makeTree(t, admin.token, 'NoWriter');
      const s = await save(t, admin.token, '/api/signals/0', {
        device_id: tree.deviceId,
        key: 'power',
        name: 'power',
        unit: 'kW',
      });
      const result = await t.ctx.telemetry.store([{ signal_id: s.id, ts: Date.now() - 60_000, value: 1 }]);
      expect(result.inserted).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('a writer thread on a database of its own', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'solar-writer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('warns once when the thread dies, and hands the batches back to the caller', async () => {
    const sqlite = new SQLite(path.join(dir, 'dies.db'));
    sqlite.pragma('journal_mode = WAL');
    const warnings: string[] = [];
    const writer = startBatchWriter(sqlite, createWriterGate(), undefined, (_d, m) => warnings.push(m))!;
    try {
      expect(await writer.ready).toBe(true);
      await writer.thread.terminate();
      await until(() => !writer.running());
      expect(writer.write([{ signal_id: 1, ts: 1, value: 1 }], new Map())).toBeUndefined();
      expect(warnings).toEqual([
        'telemetry writer thread stopped; batches are written on the event loop again',
      ]);
    } finally {
      await writer.stop();
      sqlite.close();
    }
  });

  it('runs on the writer thread’s connection, even while the main one is inside a transaction', async () => {
    const file = path.join(dir, 'catch-up.db');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table filler (id integer primary key, payload blob not null)');
    const checkpointer = startWalCheckpointer(sqlite, () => {}, { catchUpBytes: 2 * 2 ** 20 })!;
    const writer = startBatchWriter(sqlite, createWriterGate(), checkpointer, () => {})!;
    try {
      expect(await writer.ready).toBe(true);
      sqlite.exec('BEGIN');
      const insert = sqlite.prepare('insert into filler (payload) values (randomblob(3000))');
      for (let i = 0; i < 1_500; i++) insert.run();
      sqlite.exec('COMMIT');
      // The main connection stays inside a (read) transaction: only the writer's connection can catch up.
      sqlite.exec('BEGIN');
      sqlite.prepare('select count(*) from filler').get();
      await until(() => checkpointer.stats().catchUps >= 1);
      sqlite.exec('COMMIT');
      // The catch-up copied the WAL whole: the next write starts it over.
      insert.run();
      expect((sqlite.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]!.log).toBeLessThan(10);
    } finally {
      await writer.stop();
      await checkpointer.stop();
      sqlite.close();
    }
  });
});
