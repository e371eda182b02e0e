/**
 * The SQLite telemetry writer thread, seen from the event loop.
 *
 * better-sqlite3 runs every statement synchronously on the thread that calls it. At ingest rates near the
 * storage limit a 10,000-point batch's transaction (raw insert, latest values, rollups, commit) was about
 * 14 ms of the 21 ms the event loop spent on it, so HTTP ingest reached only 0.66-0.70 of a bare insert
 * loop (docs/benchmarks.md). Here the transaction runs on a thread with its own connection to the same
 * file (batch-writer-thread.ts), with the same TelemetryStore code, while the event loop parses, checks,
 * answers and feeds the listeners; the two overlap across batches.
 *
 * What that asks of the rest of the server, and where it is done:
 * - Two connections now write. Every transaction on the main connection begins IMMEDIATE (database.ts,
 *   statement-cache.ts): a deferred one that read and then wrote while the writer committed would fail at
 *   once instead of waiting for the lock. And the two connections take turns (db/sqlite-writer-gate.ts):
 *   the main one waits, without blocking the event loop, for the batch in progress; the thread begins no
 *   batch while the main one wants to write.
 * - The WAL's catch-up (db/wal-checkpointer.ts) must run between two of *this* thread's transactions, since
 *   it is the one that writes without a gap; the checkpointer asks it here. If the checkpoint thread stops,
 *   this connection goes back to SQLite's own checkpoints, as the main one does.
 * - Until the thread has opened its connection, and after it stopped or failed, `write` answers undefined
 *   and the store runs the batch in process, as before. A batch in flight when the thread dies fails (500);
 *   sending it again is safe, because only points that are new reach the rollups.
 * - An in-memory database has no second connection: it never starts a writer.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { threadEntry } from '../lib/thread-entry';
import { writerLeaves } from '../db/sqlite-writer-gate';
import { SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, type WalCheckpointer } from '../db/wal-checkpointer';
import type { BatchWriter, BatchWritten } from './telemetry-store';
import type { RawRow, SignalMeta } from './telemetry-store.repository';
import type { PointToStore } from './telemetry-hub';

/**
 * How long the writer waits for the main connection's write lock. The main connection's transactions are
 * short, but a migration or the demo's seeding holds the lock for seconds; the wait blocks only the writer.
 */
export const WRITER_BUSY_TIMEOUT_MS = 30_000;

/** What the thread is started with. */
export interface WriterStart {
  file: string;
  busyTimeoutMs: number;
  /** DatabaseHandle.sqliteWriterGate: how the thread and the main connection take turns. */
  gate: Int32Array;
}

export type WriterRequest =
  | {
      type: 'batch';
      id: number;
      signal: Float64Array;
      ts: Float64Array;
      value: Float64Array;
      meta: [number, SignalMeta][];
    }
  | { type: 'catch-up' }
  | { type: 'autocheckpoint'; pages: number }
  | { type: 'stop' };

export type WriterReply =
  | { type: 'ready' }
  | {
      type: 'batch';
      id: number;
      /** Positions of the inserted points; absent when all were. */
      inserted?: Uint32Array;
      conflicting?: [number, number][];
      error?: { message: string; code?: string };
    }
  | { type: 'catch-up'; busy: boolean; ms: number };

interface Pending {
  known: readonly PointToStore[];
  resolve: (written: BatchWritten) => void;
  reject: (error: Error) => void;
}

export interface BatchWriterThread extends BatchWriter {
  /** The thread itself (tests end it to see the store fall back). */
  thread: Worker;
  /** True once the thread's connection is open, until it stops or fails. */
  running: () => boolean;
  /** Settles once the thread is ready (true) or failed to start (false). */
  ready: Promise<boolean>;
  /** Batches the thread has written. */
  written: () => number;
  /** Waits for the batches in flight, then closes the thread's connection (before the main one closes). */
  stop: () => Promise<void>;
}

/**
 * Starts the writer thread for a SQLite file database; undefined for an in-memory one. `checkpointer`, the
 * database's checkpoint thread, if it runs, hands its catch-ups to this thread.
 */
export function startBatchWriter(
  sqlite: SQLite.Database,
  gate: Int32Array,
  checkpointer: WalCheckpointer | undefined,
  warn: (details: object, message: string) => void,
): BatchWriterThread | undefined {
  if (sqlite.memory) return undefined;

  const workerData: WriterStart = {
    file: path.resolve(sqlite.name),
    busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS,
    gate,
  };
  const worker = new Worker(
    threadEntry('telemetry-writer.js', new URL('./batch-writer-thread.ts', import.meta.url)),
    { workerData },
  );
  let ready = false;
  let stopped = false;
  let written = 0;
  let settleReady: (ready: boolean) => void = () => {};
  const readyOnce = new Promise<boolean>((resolve) => (settleReady = resolve));
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let catchUpWaiting: ((answer: { busy: boolean; ms: number }) => void) | undefined;

  let failed = false;
  /** Once: a thread that fails emits 'error' and then 'exit'. */
  const fail = (details: object) => {
    if (failed) return;
    failed = true;
    const wasRunning = ready;
    ready = false;
    settleReady(false);
    // A thread that died inside a batch never says it left it: the main connection would wait for good.
    writerLeaves(gate);
    checkpointer?.catchUpWith(undefined);
    for (const { reject } of pending.values()) reject(new Error('the telemetry writer thread stopped'));
    pending.clear();
    catchUpWaiting?.({ busy: true, ms: 0 });
    catchUpWaiting = undefined;
    if (!stopped && wasRunning)
      warn(details, 'telemetry writer thread stopped; batches are written on the event loop again');
    else if (!stopped)
      warn(details, 'telemetry writer thread did not start; batches are written on the event loop');
  };
  worker.on('error', (error) => fail({ err: error }));
  worker.on('exit', (code) => fail({ exitCode: code }));
  worker.unref();

  worker.on('message', (reply: WriterReply) => {
    if (reply.type === 'ready') {
      if (stopped) return;
      ready = true;
      settleReady(true);
      checkpointer?.catchUpWith(() => {
        if (!ready) return undefined;
        const request: WriterRequest = { type: 'catch-up' };
        worker.postMessage(request);
        return new Promise((resolve) => (catchUpWaiting = resolve));
      });
      // The checkpoint thread stopped before this one was ready, or stops later: SQLite's own checkpoints.
      if (!checkpointer?.stats().running) autocheckpoint();
      return;
    }
    if (reply.type === 'catch-up') {
      catchUpWaiting?.(reply);
      catchUpWaiting = undefined;
      return;
    }
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error) {
      waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      return;
    }
    written += 1;
    const { known } = waiting;
    const inserted = reply.inserted;
    waiting.resolve({
      // The caller's own objects: the listeners get them as they are (StoreOptions.placed).
      rows: (inserted ? Array.from(inserted, (i) => known[i]!) : known) as RawRow[],
      conflictingByDevice: new Map(reply.conflicting),
    });
  });
  const autocheckpoint = () => {
    const request: WriterRequest = { type: 'autocheckpoint', pages: SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES };
    worker.postMessage(request);
  };
  checkpointer?.onFallBack(() => {
    if (ready) autocheckpoint();
  });

  return {
    thread: worker,
    running: () => ready,
    ready: readyOnce,
    written: () => written,
    write(known, meta) {
      if (!ready) return undefined;
      const n = known.length;
      const signal = new Float64Array(n);
      const ts = new Float64Array(n);
      const value = new Float64Array(n);
      const signals = new Map<number, SignalMeta>();
      for (let i = 0; i < n; i++) {
        const p = known[i]!;
        signal[i] = p.signal_id;
        ts[i] = p.ts;
        value[i] = p.value;
        if (!signals.has(p.signal_id)) signals.set(p.signal_id, meta.get(p.signal_id)!);
      }
      const id = nextId++;
      const request: WriterRequest = { type: 'batch', id, signal, ts, value, meta: [...signals] };
      return new Promise<BatchWritten>((resolve, reject) => {
        pending.set(id, { known, resolve, reject });
        worker.postMessage(request, [signal.buffer, ts.buffer, value.buffer]);
      });
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const wasReady = ready;
      ready = false;
      settleReady(false);
      checkpointer?.catchUpWith(undefined);
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      if (!wasReady) {
        await worker.terminate();
        return;
      }
      // After the batches in flight: the thread handles its messages in order.
      const request: WriterRequest = { type: 'stop' };
      worker.postMessage(request);
      const timeout = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
