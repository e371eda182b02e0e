/**
 * The data-quality thread, seen from the event loop. A pass of the job judges every plant's yesterday and
 * today: the detectors are CPU (a year of a 101-signal plant is 2.3 s, docs/data-quality.md, "Cost") and on
 * SQLite the read is synchronous, so on the event loop a pass held every request for up to a second
 * (docs/benchmarks.md, bench:data-quality). Here both run on one thread (detection-thread.ts), one plant
 * day at a time; the flags are written by the engine on the event loop, as before (a few rows a day).
 *
 * - The thread starts with the first plant day, and again after it failed (that plant day fails, as a plant
 *   day that threw did before); it does not keep the process up.
 * - `close()` ends it: a plant day in progress fails with DetectionStopped, which the job does not report.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { threadEntry } from '../../../lib/thread-entry';
import {
  packPoints,
  type Detection,
  type DetectionPoints,
  type DetectionRequest,
  type PackedPoints,
} from './detection';

/** How long the thread's read waits for a lock (only a checkpoint's; WAL readers never wait for writers). */
const READ_BUSY_TIMEOUT_MS = 30_000;

/** What the thread is started with. */
export interface DetectionThreadStart {
  /** The SQLite database file the thread reads itself; absent: the readings come with each request. */
  sqliteFile?: string;
  busyTimeoutMs: number;
}

/** A plant day for the thread. */
export interface DetectionAsk {
  id: number;
  request: DetectionRequest;
  points?: PackedPoints;
  neighbourPoints?: PackedPoints;
}

export type DetectionReply = { id: number; detection: Detection } | { id: number; error: string };

/** A plant day's detection ended because the thread was closed (the server stops). */
export class DetectionStopped extends Error {
  constructor() {
    super('the data-quality thread was closed');
  }
}

/** The SQLite file the thread may read through a connection of its own; undefined otherwise. */
export function ownReadFile(sqlite: SQLite.Database | undefined): string | undefined {
  return sqlite && !sqlite.memory ? path.resolve(sqlite.name) : undefined;
}

export class DetectionRunner {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (d: Detection) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private closed = false;

  /** `sqliteFile`: see ownReadFile. */
  constructor(private readonly sqliteFile: string | undefined) {}

  /** True when the thread reads the readings itself; otherwise the engine reads and hands them over. */
  get readsItself(): boolean {
    return this.sqliteFile !== undefined;
  }

  /** Runs one plant day's detection on the thread; `read` is required unless the thread reads itself. */
  detect(request: DetectionRequest, read?: DetectionPoints): Promise<Detection> {
    if (this.closed) return Promise.reject(new DetectionStopped());
    const worker = this.started();
    const id = ++this.nextId;
    const ask: DetectionAsk = { id, request };
    const transfer: ArrayBuffer[] = [];
    if (read) {
      const points = packPoints(read.points);
      const neighbours = packPoints(read.neighbourPoints);
      ask.points = points.packed;
      ask.neighbourPoints = neighbours.packed;
      transfer.push(...points.transfer, ...neighbours.transfer);
    }
    return new Promise<Detection>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(ask, transfer);
    });
  }

  /** Ends the thread; a plant day in progress fails with DetectionStopped. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failPending(new DetectionStopped());
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const workerData: DetectionThreadStart = {
      ...(this.sqliteFile ? { sqliteFile: this.sqliteFile } : {}),
      busyTimeoutMs: READ_BUSY_TIMEOUT_MS,
    };
    const worker = new Worker(
      threadEntry('data-quality-thread.js', new URL('./detection-thread.ts', import.meta.url)),
      { workerData },
    );
    // Idle between the job's passes, it must not keep the process alive.
    worker.unref();
    worker.on('message', (reply: DetectionReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(`data-quality thread: ${reply.error}`));
      else waiting.resolve(reply.detection);
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failPending(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the data-quality thread exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failPending(error: Error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}
