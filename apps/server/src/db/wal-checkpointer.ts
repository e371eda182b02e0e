import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints on a thread of their own.
 *
 * By default SQLite checkpoints inside whichever commit grows the WAL past 1,000 pages: it copies the WAL's
 * pages into the database file and fsyncs it, and better-sqlite3 runs that synchronously on the server's one
 * JS thread. Under ingest load that was more than half of the time commits took (13.9 s of every 60 s
 * instead of 5.0 s). Here the main connection turns its auto-checkpoint off, and a worker thread with its
 * own connection to the same file runs `PRAGMA wal_checkpoint(PASSIVE)` every CHECKPOINT_INTERVAL_MS.
 *
 * PASSIVE copies what it can without waiting for readers or writers and never calls the busy handler, so
 * it cannot stall the main thread. RESTART and TRUNCATE are not used: they take the writer lock and hold it
 * while they wait for readers, and the main thread's next commit would then wait on *its* busy handler,
 * synchronously. The WAL file's size is bounded by `journal_size_limit` instead (below).
 *
 * If the thread cannot start, fails or exits, the main connection turns its auto-checkpoint back on and
 * says so in the log: the database is never left without checkpoints.
 */

/** SQLite's default `wal_autocheckpoint` (pages), what the main connection goes back to if the thread fails. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * How often the thread checkpoints. At 20,000 points/s the WAL grows by a few hundred pages in this time,
 * so it stays near the size SQLite's own 1,000-page auto-checkpoint kept it at (readers' look-ups in the
 * WAL index stay short, the WAL stays in the page cache), while a page rewritten by several commits within
 * the interval is still copied once. A checkpoint with nothing to copy costs a few microseconds.
 */
export const CHECKPOINT_INTERVAL_MS = 200;
/**
 * While the WAL holds at least SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES and is still growing (a burst of writes,
 * or readers keeping it from starting over), the next checkpoint comes this soon.
 */
export const CHECKPOINT_SOON_MS = 50;

/**
 * The WAL file's size left on disk when the WAL starts over (64 MiB). SQLite reuses the WAL file rather
 * than truncating it, so one burst (or a long read that kept a checkpoint from finishing) would otherwise
 * leave a large file for good. Well above the few MiB the WAL reaches between two checkpoints, so the file
 * is not truncated and grown again at every restart under steady load.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 2 ** 20;

/** What the thread has done since the database was opened (for health and metrics). */
export interface WalCheckpointStats {
  /** False once the thread has stopped or failed (the main connection then checkpoints by itself). */
  running: boolean;
  /** Checkpoints run, including busy ones. */
  checkpoints: number;
  /** Checkpoints that could not run because another connection was checkpointing (tried again later). */
  busy: number;
  /** Pages in the WAL at the last checkpoint. */
  walPages: number;
  /** Of those, pages already copied into the database file. */
  checkpointedPages: number;
  /** When the last checkpoint ran (epoch ms), 0 before the first. */
  lastCheckpointAt: number;
}

export interface WalCheckpointer {
  /** The thread itself (tests end it to see the main connection take the checkpoints back). */
  thread: Worker;
  stats: () => WalCheckpointStats;
  /** Stops the thread and waits for it to close its connection (before the main connection closes). */
  stop: () => Promise<void>;
}

/** Slots of the shared Float64Array the thread writes its figures into (read without a message). */
const Slot = {
  Checkpoints: 0,
  Busy: 1,
  WalPages: 2,
  CheckpointedPages: 3,
  LastCheckpointAt: 4,
  Count: 5,
} as const;

/**
 * The thread's code: plain CommonJS, run with `eval`, so that it works the same from the esbuild bundle
 * (dist/server.js) and from the TypeScript sources under vitest/tsx, with no worker file to ship or
 * transpile. It requires better-sqlite3 by the absolute path the main thread resolved.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const figures = new Float64Array(workerData.figures);
const db = new Database(workerData.file, { fileMustExist: true });
// PASSIVE never calls the busy handler; 0 keeps anything else on this connection from waiting either.
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
let timer;
let previousLog = 0;
function checkpoint() {
  let delay = workerData.intervalMs;
  try {
    const row = db.pragma('wal_checkpoint(PASSIVE)')[0];
    figures[${Slot.Checkpoints}] += 1;
    figures[${Slot.LastCheckpointAt}] = Date.now();
    if (row.busy) figures[${Slot.Busy}] += 1;
    else {
      figures[${Slot.WalPages}] = row.log;
      figures[${Slot.CheckpointedPages}] = row.checkpointed;
      if (row.log >= workerData.burstPages && row.log !== previousLog) delay = workerData.soonMs;
      previousLog = row.log;
    }
  } catch (error) {
    // Another connection checkpointing, or a lock held by another process: try again later. Anything else
    // ends the thread, and the main connection checkpoints by itself again.
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error;
    figures[${Slot.Checkpoints}] += 1;
    figures[${Slot.Busy}] += 1;
  }
  timer = setTimeout(checkpoint, delay);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
checkpoint();
`;

/**
 * Moves the checkpoints of a SQLite file database in WAL mode to a worker thread (see above). Returns
 * undefined, and changes nothing, for an in-memory database or one not in WAL mode.
 */
export function startWalCheckpointer(
  sqlite: SQLite.Database,
  /** Never called before this function has returned. */
  warn: (details: object, message: string) => void,
): WalCheckpointer | undefined {
  if (sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  // Set even if the thread does not start: it only bounds the WAL file left on disk.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const figures = new Float64Array(new SharedArrayBuffer(Slot.Count * Float64Array.BYTES_PER_ELEMENT));
  let running = false;
  let stopping = false;

  const fallBack = (details: object) => {
    if (!running || stopping) return;
    running = false;
    // Only fails if the connection is closed or mid-iteration; then there is nothing to protect or it is
    // retried by the caller's next open. Never throw from the worker's event handlers.
    try {
      sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch (error) {
      warn({ err: error }, 'could not turn SQLite auto-checkpoint back on');
    }
    warn(details, 'WAL checkpoint thread stopped; SQLite checkpoints inside commits again');
  };

  let worker: Worker;
  try {
    worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: path.resolve(sqlite.name),
        figures: figures.buffer,
        intervalMs: CHECKPOINT_INTERVAL_MS,
        soonMs: CHECKPOINT_SOON_MS,
        burstPages: SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
      },
    });
  } catch (error) {
    // On a later turn, as every other warning of this module: the caller may still be setting up its log.
    queueMicrotask(() =>
      warn({ err: error }, 'WAL checkpoint thread did not start; SQLite checkpoints inside commits'),
    );
    return undefined;
  }
  // Off as soon as the thread exists; an 'error' or 'exit' (including one while it starts: driver not
  // found, file not opened) turns it back on.
  sqlite.pragma('wal_autocheckpoint = 0');
  running = true;
  worker.on('error', (error) => fallBack({ err: error }));
  worker.on('exit', (code) => fallBack({ exitCode: code }));
  // The thread must not keep the process alive on its own.
  worker.unref();

  return {
    thread: worker,
    stats: () => ({
      running,
      checkpoints: figures[Slot.Checkpoints]!,
      busy: figures[Slot.Busy]!,
      walPages: figures[Slot.WalPages]!,
      checkpointedPages: figures[Slot.CheckpointedPages]!,
      lastCheckpointAt: figures[Slot.LastCheckpointAt]!,
    }),
    stop: async () => {
      if (stopping) return;
      stopping = true;
      if (!running) return;
      running = false;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      // A checkpoint in progress finishes first (it is one synchronous call); a thread that does not close
      // its connection within a few seconds is ended.
      const timeout = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
