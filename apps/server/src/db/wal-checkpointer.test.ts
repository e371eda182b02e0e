import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database';
import {
  SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
  WAL_SIZE_LIMIT_BYTES,
  startWalCheckpointer,
} from './wal-checkpointer';

/** Rows of about one page each (3,000 bytes on 4 KiB pages): the WAL grows by a page per row. */
const ROW_BYTES = 3_000;
const PAGE_BYTES = 4_096;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const autocheckpoint = (sqlite: SQLite.Database) => sqlite.pragma('wal_autocheckpoint', { simple: true });

/** Writes `rows` rows of ROW_BYTES random bytes in transactions of 500, synchronously. */
function writePages(sqlite: SQLite.Database, rows: number): void {
  const insert = sqlite.prepare('insert into filler (payload) values (randomblob(?))');
  const batch = sqlite.transaction((count: number) => {
    for (let i = 0; i < count; i++) insert.run(ROW_BYTES);
  });
  for (let done = 0; done < rows; done += 500) batch(Math.min(500, rows - done));
}

/**
 * A second process that holds `BEGIN EXCLUSIVE` (and has written inside it) for `holdMs`, as in
 * sqlite-lock.test.ts; resolves once it holds the lock, with the promise of its exit code.
 */
async function holdLock(file: string, holdMs: number): Promise<{ exited: Promise<number | null> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    const insert = db.prepare('insert into filler (payload) values (randomblob(3000))');
    for (let i = 0; i < 200; i++) insert.run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], {
    // better-sqlite3 resolves from the server package.
    cwd: path.resolve(__dirname, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    void exited.then((code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  return { exited };
}

describe('WAL checkpoints on a thread of their own', () => {
  let dir: string;
  let file: string;
  let handle: DatabaseHandle;
  let warnings: string[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'solar-checkpointer-'));
    file = path.join(dir, 'solar.db');
    warnings = [];
    handle = openDatabase(
      { dialect: 'sqlite', file },
      { log: { warn: (_details, message) => warnings.push(message) } },
    );
    handle.sqlite!.exec('create table filler (id integer primary key, payload blob not null)');
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns the main connection’s auto-checkpoint off and bounds the WAL file', () => {
    const sqlite = handle.sqlite!;
    expect(autocheckpoint(sqlite)).toBe(0);
    expect(sqlite.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
  });

  it('copies the WAL into the database file from the thread', async () => {
    const sqlite = handle.sqlite!;
    const rows = 3_000;
    writePages(sqlite, rows);
    // The main connection does not checkpoint (auto-checkpoint 0), and it is the only other connection:
    // the database file holds the rows only once the thread has copied them there.
    await until(() => statSync(file).size >= rows * PAGE_BYTES);
    // A checkpoint run after all the writes, that found the whole WAL copied.
    const written = Date.now();
    await until(() => {
      const stats = handle.walCheckpoints()!;
      return (
        stats.lastCheckpointAt > written && stats.walPages > 0 && stats.checkpointedPages === stats.walPages
      );
    });
    const stats = handle.walCheckpoints()!;
    expect(stats.running).toBe(true);
    expect(stats.lastCheckpointAt).toBeGreaterThan(0);
    // A checkpoint of our own finds nothing left to copy (busy, all -1, while the thread's own one runs).
    type CheckpointRow = { busy: number; log: number; checkpointed: number };
    let row: CheckpointRow | undefined;
    await until(() => {
      row = (sqlite.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[])[0];
      return row?.busy === 0;
    });
    expect(row).toEqual({ busy: 0, log: stats.walPages, checkpointed: stats.walPages });
    expect(autocheckpoint(sqlite)).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('keeps the WAL file within journal_size_limit once it starts over', async () => {
    // SQLite truncates to the limit when a commit starts the WAL over after a full checkpoint; 70 MiB of
    // rows in one transaction makes the file larger than that first.
    const sqlite = handle.sqlite!;
    const rows = Math.ceil((WAL_SIZE_LIMIT_BYTES + 6 * 2 ** 20) / PAGE_BYTES);
    sqlite.transaction(() => writePages(sqlite, rows))();
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    await until(() => {
      const stats = handle.walCheckpoints()!;
      return stats.walPages >= rows && stats.checkpointedPages === stats.walPages;
    }, 30_000);
    writePages(sqlite, 1);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
  });

  it('gives the checkpoints back to the main connection when the thread ends', async () => {
    // A connection of our own, to reach its thread (the database handle only shows its figures).
    const sqlite = new SQLite(path.join(dir, 'own.db'));
    sqlite.pragma('journal_mode = WAL');
    const own: string[] = [];
    const checkpointer = startWalCheckpointer(sqlite, (_details, message) => own.push(message))!;
    try {
      expect(autocheckpoint(sqlite)).toBe(0);
      await until(() => checkpointer.stats().checkpoints > 0);
      // Ended from outside, as a crash of the thread would end it.
      await checkpointer.thread.terminate();
      await until(() => autocheckpoint(sqlite) === SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES);
      expect(checkpointer.stats().running).toBe(false);
      expect(own).toEqual(['WAL checkpoint thread stopped; SQLite checkpoints inside commits again']);
    } finally {
      await checkpointer.stop();
      sqlite.close();
    }
  });

  it('gives the checkpoints back when the thread cannot open the database', async () => {
    // A connection of our own whose file is no longer where its name says: the thread's open fails.
    const other = path.join(dir, 'other.db');
    const sqlite = new SQLite(other);
    sqlite.pragma('journal_mode = WAL');
    renameSync(other, path.join(dir, 'moved.db'));
    const own: string[] = [];
    const checkpointer = startWalCheckpointer(sqlite, (_details, message) => own.push(message))!;
    try {
      expect(autocheckpoint(sqlite)).toBe(0);
      await until(() => autocheckpoint(sqlite) === SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES);
      expect(checkpointer.stats().running).toBe(false);
      expect(own).toContain('WAL checkpoint thread stopped; SQLite checkpoints inside commits again');
    } finally {
      await checkpointer.stop();
      sqlite.close();
    }
  });

  it(
    'survives another process holding the database, and checkpoints again after',
    { timeout: 30_000 },
    async () => {
      const sqlite = handle.sqlite!;
      const { exited } = await holdLock(file, 1_000);
      const before = handle.walCheckpoints()!.checkpoints;
      // Checkpoints go on running (or find the database busy) while the lock is held.
      await until(() => handle.walCheckpoints()!.checkpoints >= before + 3);
      expect(await exited).toBe(0);
      expect(handle.walCheckpoints()!.running).toBe(true);
      // As above: only the thread puts the new rows into the database file.
      const sizeBefore = statSync(file).size;
      writePages(sqlite, 1_000);
      await until(() => statSync(file).size >= sizeBefore + 1_000 * PAGE_BYTES);
      await until(() => {
        const stats = handle.walCheckpoints()!;
        return stats.checkpointedPages === stats.walPages;
      });
      expect(autocheckpoint(sqlite)).toBe(0);
      expect(warnings).toEqual([]);
    },
  );

  it('closes the thread before the main connection, which then checkpoints and removes the WAL', async () => {
    writePages(handle.sqlite!, 100);
    // Kysely opens (and so closes) its connection only once it has run a query.
    await handle.ping();
    await handle.close();
    expect(handle.walCheckpoints()!.running).toBe(false);
    expect(() => statSync(`${file}-wal`)).toThrow();
    // afterEach closes again: a second close must be harmless.
  });
});

interface WriteProgress {
  batches: number;
  restarts: number;
  largestWalBytes: number;
  /** WAL frames written in all, and the most the WAL held at once. */
  writtenFrames: number;
  largestFrames: number;
}

/**
 * Writes transactions of 100 rows (about 300 KB of WAL) one after the other until `done` says so, each on
 * the next turn of the event loop, as sustained ingest does: no gap in which the thread's checkpoint could
 * find the WAL wholly copied. Answers how many it wrote, how often the WAL started over (its file offset
 * went back) and its largest size. The amount written, not a time, ends it, so a loaded machine (less CPU
 * for the checkpoint thread) changes how long it takes, not what it shows.
 */
async function writeWithoutGaps(
  sqlite: SQLite.Database,
  file: string,
  done: (progress: WriteProgress) => boolean,
): Promise<WriteProgress> {
  const insert = sqlite.prepare('insert into filler (payload) values (randomblob(?))');
  const batch = sqlite.transaction(() => {
    for (let i = 0; i < 100; i++) insert.run(ROW_BYTES);
  });
  // The WAL's end: sqlite_master's change counter would not do, the WAL index's mxFrame is not exposed; a
  // PASSIVE checkpoint of our own would checkpoint. The file offset of the last frame is what moves back.
  const frames = () => (sqlite.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]!.log;
  const progress: WriteProgress = {
    batches: 0,
    restarts: 0,
    largestWalBytes: 0,
    writtenFrames: 0,
    largestFrames: 0,
  };
  let previous = 0;
  const deadline = Date.now() + 60_000;
  while (!done(progress)) {
    if (Date.now() > deadline) throw new Error(`no end after 60 s: ${JSON.stringify(progress)}`);
    batch();
    progress.batches += 1;
    const now = frames();
    if (now < previous) progress.restarts += 1;
    progress.writtenFrames += now < previous ? now : now - previous;
    progress.largestFrames = Math.max(progress.largestFrames, now);
    previous = now;
    progress.largestWalBytes = Math.max(progress.largestWalBytes, statSync(`${file}-wal`).size);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return progress;
}

describe('a WAL under writes that leave no gap', () => {
  let dir: string;
  let file: string;
  let sqlite: SQLite.Database;

  /** A new database file with the filler table, on the server's pragmas. */
  const open = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'solar-checkpointer-'));
    file = path.join(dir, 'solar.db');
    sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec('create table filler (id integer primary key, payload blob not null)');
  };
  const close = () => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  };
  beforeEach(open);
  afterEach(close);

  it('starts over once past the bound: the main connection catches the checkpoint up', async () => {
    const catchUpBytes = 8 * 2 ** 20;
    // At least 40 MiB, and on until the thread has asked three times, the WAL started over each time, and
    // three times as much was written as the WAL ever held (the first stretch, before the thread's first
    // look, is the longest on a fast machine).
    const checkpointer = startWalCheckpointer(sqlite, () => {}, { catchUpBytes })!;
    let after: WriteProgress;
    try {
      after = await writeWithoutGaps(
        sqlite,
        file,
        (p) =>
          p.batches >= 140 &&
          checkpointer.stats().catchUps >= 3 &&
          p.restarts >= 3 &&
          p.writtenFrames >= 3 * p.largestFrames,
      );
      expect(checkpointer.stats().longestCatchUpMs).toBeGreaterThan(0);
    } finally {
      await checkpointer.stop();
    }

    // The same writes again with nothing to catch up (an unreachable bound), as before the catch-up existed.
    close();
    open();
    const unchecked = startWalCheckpointer(sqlite, () => {}, { catchUpBytes: Number.POSITIVE_INFINITY })!;
    const before = await writeWithoutGaps(sqlite, file, (p) => p.batches >= after.batches);
    await unchecked.stop();
    expect(unchecked.stats().catchUps).toBe(0);
    // The thread's checkpoints never found the WAL wholly copied when a write began.
    expect(before.restarts).toBeLessThanOrEqual(1);
    expect(before.largestWalBytes).toBeGreaterThan(4 * catchUpBytes);
    expect(after.largestWalBytes).toBeLessThan(before.largestWalBytes / 2);
  });

  it('never catches up inside a transaction of the main connection, and does once it ends', async () => {
    const checkpointer = startWalCheckpointer(sqlite, () => {}, { catchUpBytes: 2 * 2 ** 20 })!;
    try {
      // A transaction that spans turns of the event loop, as a Kysely one does; 4 MiB written inside it.
      sqlite.exec('BEGIN');
      writePages(sqlite, 1_000);
      sqlite.exec('COMMIT');
      sqlite.exec('BEGIN');
      writePages(sqlite, 10);
      // The thread sees the WAL past the bound and asks; the main connection is in its transaction.
      await until(() => checkpointer.stats().walPages >= 1_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(checkpointer.stats().catchUps).toBe(0);
      sqlite.exec('COMMIT');
      // At least once: until the next write starts the WAL over, the thread still finds it past the bound
      // and asks again (a catch-up with nothing left to copy), so a count of exactly 1 may be missed.
      await until(() => checkpointer.stats().catchUps >= 1);
      // Its next write starts the WAL over.
      writePages(sqlite, 1);
      const row = (sqlite.pragma('wal_checkpoint(NOOP)') as { log: number }[])[0]!;
      expect(row.log).toBeLessThan(10);
    } finally {
      await checkpointer.stop();
    }
  });
});

describe('an in-memory database', () => {
  it('keeps SQLite’s own checkpoints (no thread)', async () => {
    const handle = openDatabase({ dialect: 'sqlite', file: ':memory:' });
    try {
      expect(handle.walCheckpoints()).toBeUndefined();
    } finally {
      await handle.close();
    }
  });
});
