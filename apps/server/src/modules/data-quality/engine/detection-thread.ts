/**
 * The data-quality thread's entry (started by detection-runner.ts; bundled as dist/data-quality-thread.js).
 *
 * It runs the detectors of one plant day at a time, off the event loop, and reads the day's readings
 * itself through a connection of its own (read-only on SQLite): better-sqlite3 reads synchronously, and a
 * plant's days are hundreds of thousands of rows, which PostgreSQL's answer also takes long to decode. An
 * in-memory SQLite database has no second connection: then the readings come with the request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { openDatabase, type Db } from '../../../db/database';
import type { Database } from '../../../db/schema';
import { detect, readDetectionPoints, unpackPoints } from './detection';
import type { DetectionAsk, DetectionReply, DetectionSource, DetectionThreadStart } from './detection-runner';

const start = workerData as DetectionThreadStart;

/** The thread's own connection, opened on its first read. */
let db: Db | undefined;
function ownDb(source: DetectionSource): Db {
  if (db) return db;
  if (source.dialect === 'postgres') return (db = openDatabase(source).db);
  const sqlite = new SQLite(source.file, { readonly: true, fileMustExist: true });
  // A read waits for a checkpoint's short lock instead of failing (it never waits for a writer in WAL).
  sqlite.pragma(`busy_timeout = ${start.busyTimeoutMs}`);
  return (db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }));
}

async function answer(ask: DetectionAsk): Promise<DetectionReply> {
  try {
    const read = ask.points
      ? {
          points: unpackPoints(ask.points),
          neighbourPoints: unpackPoints(ask.neighbourPoints ?? []),
          hourlyPoints: unpackPoints(ask.hourlyPoints ?? []),
        }
      : await readDetectionPoints(ownDb(start.source!), start.source!.dialect, ask.request);
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
