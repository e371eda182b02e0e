import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, SQLITE_BUSY_TIMEOUT_MS, type DatabaseHandle } from './database';
import { writerEnters, writerLeaves } from './sqlite-writer-gate';

/** Longer than the main connection's busy timeout, as a back-fill batch on a loaded machine is. */
const HOLD_MS = 4 * SQLITE_BUSY_TIMEOUT_MS;

/**
 * The turn taking between the main connection and the telemetry writer thread (sqlite-writer-gate.ts),
 * with a second connection in the writer's place that holds the write lock for HOLD_MS.
 */
describe('the SQLite writer gate', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let writer: SQLite.Database;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'solar-gate-'));
    const file = path.join(dir, 'gate.db');
    handle = openDatabase({ dialect: 'sqlite', file });
    await sql`create table counts (key text primary key, count integer not null)`.execute(handle.db);
    writer = new SQLite(file);
    writer.pragma('busy_timeout = 30000');
  });
  afterAll(async () => {
    writer.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The writer's batch: enters its turn, takes the lock, and commits after HOLD_MS. */
  async function writerBatch(): Promise<void> {
    const gate = handle.sqliteWriterGate!;
    writerEnters(gate);
    writer.exec('begin immediate');
    writer.prepare("insert into counts (key, count) values ('writer', 1) on conflict do nothing").run();
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    writer.exec('commit');
    writerLeaves(gate);
  }

  it('lets a write that returns rows wait for the batch instead of failing busy', async () => {
    const batch = writerBatch();
    const started = performance.now();
    // The sign-in's attempt count: INSERT … ON CONFLICT … RETURNING, outside a transaction.
    const written = sql<{ count: number }>`insert into counts (key, count) values ('ip', 1)
      on conflict (key) do update set count = counts.count + 1 returning count`.execute(handle.db);
    let waitedMs = 0;
    const row = await written
      .then((result) => ((waitedMs = performance.now() - started), result.rows[0]))
      .finally(() => batch);
    expect(row).toEqual({ count: 1 });
    // It took its turn after the batch rather than in the busy handler (which gives up at 100 ms).
    expect(waitedMs).toBeGreaterThanOrEqual(HOLD_MS - 50);
  });

  it('lets reads go on while the batch holds the lock (WAL)', async () => {
    const batch = writerBatch();
    const started = performance.now();
    let readMs = Infinity;
    const rows = await sql`select key from counts`
      .execute(handle.db)
      .then((result) => ((readMs = performance.now() - started), result))
      .finally(() => batch);
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(readMs).toBeLessThan(HOLD_MS / 2);
  });
});
