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
 * The WAL starts over only when a write begins while every frame in it has been copied. Under writes that
 * follow each other without a gap (sustained ingest near the storage limit), a checkpoint that copied
 * everything finishes while the next transaction is already appending, so that moment never comes: the
 * WAL grew by 90-170 MB/s, to 70 GB in one bench run, until the disk was full. Past WAL_CATCH_UP_BYTES the
 * thread therefore asks the main thread to catch up, and the main connection runs one PASSIVE checkpoint
 * itself, between two of its own transactions: it copies the frames the thread has not (no other writer
 * exists to append more), and its next write starts the WAL over. That costs the event loop one stall per
 * WAL_CATCH_UP_BYTES of writes (the copy of what the thread had left, and an fsync) instead of an unbounded
 * file; PASSIVE still waits for no one.
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

/**
 * The WAL size past which the main connection catches the checkpoint up itself (see above): 256 MiB, four
 * times journal_size_limit, so that ordinary loads, whose WAL starts over by itself, never reach it.
 */
export const WAL_CATCH_UP_BYTES = 256 * 2 ** 20;
/** How soon the main thread tries again when a transaction or a read held its connection. */
const CATCH_UP_RETRY_MS = 5;
/** How long the thread stands aside for a catch-up it asked for before it checkpoints (and asks) again. */
const CATCH_UP_WAIT_MS = 1_000;

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
  /** The database's page size (bytes). */
  pageBytes: number;
  /** When the last checkpoint ran (epoch ms), 0 before the first. */
  lastCheckpointAt: number;
  /** Checkpoints the main connection ran itself because the WAL had grown past WAL_CATCH_UP_BYTES. */
  catchUps: number;
  /** The longest of those, in ms: the event loop's stall. */
  longestCatchUpMs: number;
}

export interface WalCheckpointerOptions {
  /** WAL_CATCH_UP_BYTES unless a test makes it smaller. */
  catchUpBytes?: number;
}

/**
 * Runs a catch-up on another connection (the telemetry writer thread's) between two of its transactions;
 * answers undefined when it cannot (then the main connection does).
 */
export type CatchUpRunner = () => Promise<{ busy: boolean; ms: number }> | undefined;

export interface WalCheckpointer {
  /** The thread itself (tests end it to see the main connection take the checkpoints back). */
  thread: Worker;
  stats: () => WalCheckpointStats;
  /** Where catch-ups run from now on: `runner`, or with undefined the main connection again. */
  catchUpWith: (runner: CatchUpRunner | undefined) => void;
  /** Called once the thread has stopped and the main connection checkpoints inside its commits again. */
  onFallBack: (listener: () => void) => void;
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
  /** Set (to the time) by the thread when it hands a catch-up to the main connection, 0 once that ran. */
  CatchUpAskedAt: 5,
  Count: 6,
} as const;

/**
 * The thread's code: plain CommonJS, run with `eval`, so that it works the same from the esbuild bundle
 * (dist/server.js) and from the TypeScript sources under vitest/tsx, with no worker file to ship or
 * transpile. It requires better-sqlite3 by the absolute path the main thread resolved.
 *
 * Past the catch-up bound it asks the main thread for a catch-up ('catch-up' message) and stands aside
 * until that has run: a checkpoint of its own would hold the checkpoint lock and make the main
 * connection's one busy. If the main thread has not caught up within CATCH_UP_WAIT_MS (a transaction or a
 * read held its connection), the thread checkpoints again and asks again.
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
  const askedAt = figures[${Slot.CatchUpAskedAt}];
  if (askedAt > 0 && Date.now() - askedAt < workerData.catchUpWaitMs) {
    timer = setTimeout(checkpoint, workerData.soonMs);
    return;
  }
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
      if (row.log >= workerData.catchUpPages) {
        figures[${Slot.CatchUpAskedAt}] = Date.now();
        parentPort.postMessage('catch-up');
        delay = workerData.soonMs;
      }
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
  options: WalCheckpointerOptions = {},
): WalCheckpointer | undefined {
  if (sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  // Set even if the thread does not start: it only bounds the WAL file left on disk.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const pageBytes = sqlite.pragma('page_size', { simple: true }) as number;
  const figures = new Float64Array(new SharedArrayBuffer(Slot.Count * Float64Array.BYTES_PER_ELEMENT));
  let running = false;
  let stopping = false;
  const fallBackListeners: (() => void)[] = [];

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
    for (const listener of fallBackListeners) listener();
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
        catchUpPages: Math.ceil((options.catchUpBytes ?? WAL_CATCH_UP_BYTES) / pageBytes),
        catchUpWaitMs: CATCH_UP_WAIT_MS,
      },
    });
  } catch (error) {
    // On a later turn, as every other warning of this module: the caller may still be setting up its log.
    queueMicrotask(() =>
      warn({ err: error }, 'WAL checkpoint thread did not start; SQLite checkpoints inside commits'),
    );
    return undefined;
  }
  let catchUps = 0;
  let longestCatchUpMs = 0;
  let catchUpRetry: NodeJS.Timeout | undefined;
  let catchingUp = false;
  let catchUpElsewhere: CatchUpRunner | undefined;
  const finishCatchUp = (busy: boolean, ms: number) => {
    if (busy) {
      catchUpRetry = setTimeout(catchUp, CATCH_UP_RETRY_MS).unref();
      return;
    }
    catchUps += 1;
    longestCatchUpMs = Math.max(longestCatchUpMs, ms);
    figures[Slot.CatchUpAskedAt] = 0;
  };
  /**
   * The thread asked: copy what it has not, between two transactions of the connection that writes
   * without a gap: the telemetry writer thread's when it runs (catchUpWith), else this one (see above).
   */
  const catchUp = () => {
    catchUpRetry = undefined;
    // Asked, and not yet taken back by the thread (which then asks again after its next checkpoint).
    const askedAt = figures[Slot.CatchUpAskedAt]!;
    if (!running || catchingUp || askedAt === 0 || Date.now() - askedAt >= CATCH_UP_WAIT_MS) return;
    const elsewhere = catchUpElsewhere?.();
    if (elsewhere) {
      catchingUp = true;
      void elsewhere.then(({ busy, ms }) => {
        catchingUp = false;
        finishCatchUp(busy, ms);
      });
      return;
    }
    // Not inside a transaction (a Kysely one spans awaits) nor while an iterator holds the connection: a
    // moment later. The thread takes over again if that moment does not come soon.
    if (!sqlite.open || sqlite.inTransaction) {
      finishCatchUp(true, 0);
      return;
    }
    const started = performance.now();
    let busy: boolean;
    try {
      // Busy if another process is checkpointing; SQLITE_LOCKED if the connection is in use after all.
      busy = (sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[])[0]!.busy !== 0;
    } catch {
      busy = true;
    }
    finishCatchUp(busy, performance.now() - started);
  };
  // Off as soon as the thread exists; an 'error' or 'exit' (including one while it starts: driver not
  // found, file not opened) turns it back on.
  sqlite.pragma('wal_autocheckpoint = 0');
  running = true;
  worker.on('error', (error) => fallBack({ err: error }));
  worker.on('exit', (code) => {
    clearTimeout(catchUpRetry);
    fallBack({ exitCode: code });
  });
  // The thread must not keep the process alive on its own.
  worker.unref();

  worker.on('message', (message) => {
    if (message === 'catch-up' && !catchUpRetry && !catchingUp) catchUp();
  });

  return {
    thread: worker,
    stats: () => ({
      running,
      checkpoints: figures[Slot.Checkpoints]!,
      busy: figures[Slot.Busy]!,
      walPages: figures[Slot.WalPages]!,
      checkpointedPages: figures[Slot.CheckpointedPages]!,
      pageBytes,
      lastCheckpointAt: figures[Slot.LastCheckpointAt]!,
      catchUps,
      longestCatchUpMs,
    }),
    catchUpWith: (runner) => {
      catchUpElsewhere = runner;
    },
    onFallBack: (listener) => {
      fallBackListeners.push(listener);
    },
    stop: async () => {
      if (stopping) return;
      stopping = true;
      clearTimeout(catchUpRetry);
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
