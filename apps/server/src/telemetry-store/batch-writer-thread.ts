/**
 * The SQLite telemetry writer thread's entry (started by batch-writer.ts; bundled as dist/telemetry-writer.js).
 *
 * It opens its own connection to the server's database file and runs each batch's transaction with the same
 * TelemetryStore code the event loop would run (`writeBatch`), one batch after another, while the event loop
 * goes on parsing, checking and answering the next requests. Points arrive as three columns and the answer
 * is the positions of the inserted ones, so no point object crosses between the threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/schema';
import { writerEnters, writerLeaves } from '../db/sqlite-writer-gate';
import { withStatementCache } from '../db/statement-cache';
import { TelemetryStore } from './telemetry-store';
import type { SignalMeta } from './telemetry-store.repository';
import type { PointToStore } from './telemetry-hub';
import type { WriterReply, WriterRequest, WriterStart } from './batch-writer';

const start = workerData as WriterStart;

/**
 * How long one try at the write lock waits, in SQLite's busy handler, with this thread's turn taken. While
 * it waits, the main connection's next write waits too (db/sqlite-writer-gate.ts), and it holds Kysely's
 * one connection while it does, so every read of the event loop, `/api/health` included, queues behind it.
 * A lock another process holds for seconds (docs/security.md, hole 9) is therefore waited out in short
 * tries with the turn given back between them: the main connection's writes meet that lock themselves and
 * answer 503 at once, and its reads go on.
 */
const LOCK_TRY_MS = 50;
const sqlite = new SQLite(start.file, { fileMustExist: true });
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('foreign_keys = ON');
// Each try at the lock is short; `writeBatch` tries again until `start.busyTimeoutMs` has passed.
sqlite.pragma(`busy_timeout = ${LOCK_TRY_MS}`);
// The checkpoint thread copies the WAL (db/wal-checkpointer.ts); this connection's commits must not. If
// that thread stops, the main thread says so and this goes back to SQLite's default ('autocheckpoint').
sqlite.pragma('wal_autocheckpoint = 0');
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: withStatementCache(sqlite, undefined, { beginImmediate: true }) }),
});
const store = new TelemetryStore({ db, dialect: 'sqlite', sqlite });

type BatchReply = Extract<WriterReply, { type: 'batch' }>;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Writes one batch in its turn (not while the main connection wants to write; db/sqlite-writer-gate.ts),
 * trying again while the lock is held elsewhere, until `start.busyTimeoutMs`. A try that met the lock
 * wrote nothing (its transaction rolled back), so the next try writes the whole batch.
 */
async function writeInTurns(known: PointToStore[], meta: Map<number, SignalMeta>) {
  const deadline = Date.now() + start.busyTimeoutMs;
  for (;;) {
    writerEnters(start.gate);
    try {
      return await store.writeBatch(known, meta);
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    } finally {
      writerLeaves(start.gate);
    }
  }
}

async function writeBatch(request: Extract<WriterRequest, { type: 'batch' }>): Promise<BatchReply> {
  const known = new Array<PointToStore>(request.signal.length);
  for (let i = 0; i < known.length; i++)
    known[i] = { signal_id: request.signal[i]!, ts: request.ts[i]!, value: request.value[i]! };
  const meta = new Map<number, SignalMeta>(request.meta);
  const { rows, conflictingByDevice } = await writeInTurns(known, meta);
  let inserted: Uint32Array<ArrayBuffer> | undefined;
  if (rows.length < known.length) {
    // The inserted rows are the given objects, in order: one walk finds their positions.
    inserted = new Uint32Array(rows.length);
    for (let i = 0, j = 0; i < rows.length; j++) if (known[j] === rows[i]) inserted[i++] = j;
  }
  return { type: 'batch', id: request.id, inserted, conflicting: [...conflictingByDevice] };
}

/** Batches and catch-ups one after another: a catch-up runs between two transactions, never inside one. */
let queue = Promise.resolve();
parentPort!.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'stop') {
      await db.destroy();
      parentPort!.close();
      return;
    }
    if (request.type === 'autocheckpoint') {
      sqlite.pragma(`wal_autocheckpoint = ${request.pages}`);
      return;
    }
    if (request.type === 'catch-up') {
      const started = performance.now();
      let busy = true;
      try {
        busy = (sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[])[0]!.busy !== 0;
      } catch {
        // Busy: the answer says so and the main thread asks again.
      }
      const reply: WriterReply = { type: 'catch-up', busy, ms: performance.now() - started };
      parentPort!.postMessage(reply);
      return;
    }
    let reply: BatchReply;
    try {
      reply = await writeBatch(request);
    } catch (error) {
      const { message, code } = error as { message?: string; code?: unknown };
      reply = {
        type: 'batch',
        id: request.id,
        error: { message: String(message), ...(typeof code === 'string' ? { code } : {}) },
      };
    }
    parentPort!.postMessage(reply, reply.inserted ? [reply.inserted.buffer as ArrayBuffer] : []);
  });
});
parentPort!.postMessage({ type: 'ready' } satisfies WriterReply);
