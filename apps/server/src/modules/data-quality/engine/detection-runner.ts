/**
 * The data-quality thread, seen from the event loop. A pass of the job judges every plant's yesterday and
 * today: the detectors are CPU (a year of a 101-signal plant is 2.3 s, docs/data-quality.md, "Cost") and on
 * SQLite the read is synchronous, so on the event loop a pass held every request for seconds
 * (docs/benchmarks.md, bench:data-quality). Here both run on one thread (detection-thread.ts), one plant
 * day at a time, which reads through a connection of its own; the flags are written by the engine on the
 * event loop, as before. On PostgreSQL the read itself is asynchronous, but over a day of 691,200 readings
 * (data-quality-job-event-loop.test.ts) decoding the answer and the detectors held the event loop for 2.1 s,
 * and decoding and handing the points to the thread still 0.6 s: there too the thread reads and judges.
 *
 * - The thread starts with the first plant day, and again after it failed (that plant day fails, as a plant
 *   day that threw did before); it does not keep the process up.
 * - `cancel()` and `close()` end it: a plant day in progress fails with DetectionStopped, which the job does
 *   not report.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import type { AppConfig } from '../../../config';
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

/** The database the thread reads itself: the server's SQLite file (read-only) or PostgreSQL. */
export type DetectionSource =
  { dialect: 'sqlite'; file: string } | Extract<AppConfig['database'], { dialect: 'postgres' }>;

/** What the thread is started with. */
export interface DetectionThreadStart {
  /** Absent: the readings come with each request. */
  source?: DetectionSource;
  busyTimeoutMs: number;
}

/** A plant day for the thread. */
export interface DetectionAsk {
  id: number;
  request: DetectionRequest;
  points?: PackedPoints;
  neighbourPoints?: PackedPoints;
  hourlyPoints?: PackedPoints;
}

export type DetectionReply = { id: number; detection: Detection } | { id: number; error: string };

/** A plant day's detection ended because the thread was closed (the server stops). */
export class DetectionStopped extends Error {
  constructor() {
    super('the data-quality thread was closed');
  }
}

/**
 * What the thread may read through a connection of its own: PostgreSQL, or a SQLite file; undefined for an
 * in-memory SQLite database (`sqlite`, the open one, if known), which has no second connection.
 */
export function detectionSourceOf(
  database: AppConfig['database'],
  sqlite?: SQLite.Database,
): DetectionSource | undefined {
  if (database.dialect === 'postgres') return database;
  if (sqlite?.memory || database.file === ':memory:') return undefined;
  return { dialect: 'sqlite', file: path.resolve(database.file) };
}

export class DetectionRunner {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (d: Detection) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private closed = false;

  /** `source`: see detectionSourceOf. */
  constructor(private readonly source: DetectionSource | undefined) {}

  /** True when the thread reads the readings itself; otherwise the engine reads and hands them over. */
  get readsItself(): boolean {
    return this.source !== undefined;
  }

  /** Runs one plant day's detection on the thread; `read` is required unless the thread reads itself. */
  detect(request: DetectionRequest, read?: DetectionPoints): Promise<Detection> {
    if (this.closed) return Promise.reject(new DetectionStopped());
    const worker = this.thread();
    const id = ++this.nextId;
    const ask: DetectionAsk = { id, request };
    const transfer: ArrayBuffer[] = [];
    if (read) {
      const points = packPoints(read.points);
      const neighbours = packPoints(read.neighbourPoints);
      const hourly = packPoints(read.hourlyPoints);
      ask.points = points.packed;
      ask.neighbourPoints = neighbours.packed;
      ask.hourlyPoints = hourly.packed;
      transfer.push(...points.transfer, ...neighbours.transfer, ...hourly.transfer);
    }
    return new Promise<Detection>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(ask, transfer);
    });
  }

  /** True while a thread is up (from the first plant day until close or its failure). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Ends the thread now: a plant day in progress fails with DetectionStopped (the job's stop, so that the
   * server's shutdown does not wait for seconds of detection). The next plant day starts a new thread.
   */
  async cancel(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failPending(new DetectionStopped());
    await worker?.terminate();
  }

  /** Ends the thread for good (the server stops). */
  async close(): Promise<void> {
    this.closed = true;
    await this.cancel();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const workerData: DetectionThreadStart = {
      ...(this.source ? { source: this.source } : {}),
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
