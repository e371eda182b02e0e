/**
 * The data-quality thread's entry (started by detection-runner.ts; bundled as dist/data-quality-thread.js).
 *
 * It runs the detectors of one plant day at a time, off the event loop. On a SQLite file database it also
 * reads the day's readings itself, through a read-only connection of its own: better-sqlite3 reads
 * synchronously, and a plant's days are hundreds of thousands of rows. Otherwise (PostgreSQL, whose read
 * does not hold the event loop, or an in-memory SQLite database, which has no second connection) the
 * readings come with the request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../../../db/schema';
import { detect, readDetectionPoints, unpackPoints } from './detection';
import type { DetectionAsk, DetectionReply, DetectionThreadStart } from './detection-runner';

const start = workerData as DetectionThreadStart;

/** The thread's own connection, opened on its first read. */
let db: Kysely<Database> | undefined;
function ownDb(file: string): Kysely<Database> {
  if (!db) {
    const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    // A read waits for a checkpoint's short lock instead of failing (it never waits for a writer in WAL).
    sqlite.pragma(`busy_timeout = ${start.busyTimeoutMs}`);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  return db;
}

async function answer(ask: DetectionAsk): Promise<DetectionReply> {
  try {
    const read = ask.points
      ? { points: unpackPoints(ask.points), neighbourPoints: unpackPoints(ask.neighbourPoints ?? []) }
      : await readDetectionPoints(ownDb(start.sqliteFile!), 'sqlite', ask.request);
    return { id: ask.id, detection: detect(ask.request, read) };
  } catch (error) {
    return { id: ask.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

// One plant day after another: the engine asks for the next only once the last is answered.
let queue = Promise.resolve();
parentPort!.on('message', (ask: DetectionAsk) => {
  queue = queue.then(async () => parentPort!.postMessage(await answer(ask)));
});
