/**
 * Report and export files are built on a small pool of threads (file-build-thread.ts), never on the event
 * loop: a year of a 218-plant fleet as PDF held every other request for 44 s, and a 864,000-point XLSX
 * export ran the process out of memory (docs/security.md, "Report and export builds"). The pool:
 * - runs at most `threads` builds at once (one on a 2-core machine: the event loop keeps a core) and
 *   queues the rest, at most `queueMax` of them;
 * - lets one user have at most `perUser` builds running or queued; beyond that, or a full queue, 429
 *   errors.tooManyFileBuilds with Retry-After;
 * - gives each thread a heap limit: a build past it ends that thread, not the server (its request is
 *   answered 500 errors.fileTooLargeToBuild), and the next build starts a new thread;
 * - takes a build's data in parts, at most PARTS_IN_FLIGHT unacknowledged, so the event loop reads the next
 *   chunk of data only as the thread writes the last one.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { E } from '@solar/shared';
import { threadEntry } from '../lib/thread-entry';
import { HttpError } from '../lib/http-errors';
import {
  type FileBuildJob,
  type FileBuildPart,
  type FileBuildThreadData,
  type FromThread,
  type ToThread,
} from './file-build-protocol';

export type { FileBuildJob, FileBuildPart } from './file-build-protocol';

/** Parts sent to a thread and not yet written by it. */
const PARTS_IN_FLIGHT = 2;

export interface FileBuildLimits {
  /** Threads building at once. */
  threads: number;
  /** Builds one user may have running or queued. */
  perUser: number;
  /** Builds that may wait for a thread, over all users. */
  queueMax: number;
  /** Each thread's V8 old-generation heap limit, MiB. */
  heapMb: number;
  /** Retry-After of a refused build, seconds. */
  retryAfterS: number;
  /**
   * The threads' nice value (Linux, per thread; 0 keeps the process's priority): when a thread and the event
   * loop both want a core, the event loop gets about nine tenths of it at 10 (CFS weights 1024 against 110),
   * so light requests stay fast while a build runs. A build then takes only what the event loop, the
   * database and any other work on the machine leave: on a machine shared with other busy processes it
   * crawls, hence 0 by default (docs/security.md, "Report and export builds").
   */
  nice: number;
}

/** One thread on a 2-core machine, so that the event loop keeps a core; at most two. */
export const defaultFileBuildLimits = (): FileBuildLimits => ({
  threads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  perUser: 2,
  queueMax: 16,
  heapMb: 512,
  retryAfterS: 10,
  nice: 0,
});

/** Sends one part of a build's data; resolves when the thread may take another. */
export type SendPart = (part: FileBuildPart, transfer?: ArrayBuffer[]) => Promise<void>;

/** One thread and the build it runs. */
class BuildThread {
  readonly worker: Worker;
  private listener: ((m: FromThread) => void) | undefined;
  private onDeath: ((error: Error) => void) | undefined;
  dead = false;

  constructor(limits: FileBuildLimits, exited: (thread: BuildThread) => void) {
    const workerData: FileBuildThreadData = { nice: limits.nice };
    this.worker = new Worker(
      threadEntry('file-builder.js', new URL('./file-build-thread.ts', import.meta.url)),
      { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb }, workerData },
    );
    this.worker.on('message', (m: FromThread) => this.listener?.(m));
    const die = (error: Error) => {
      if (this.dead) return;
      this.dead = true;
      this.onDeath?.(error);
      exited(this);
    };
    // Its heap limit reached: the file asked for is too large to build, which the user is told as such.
    this.worker.on('error', (error: Error & { code?: string }) =>
      die(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? Object.assign(new HttpError(500, E.fileTooLargeToBuild), { cause: error })
          : error,
      ),
    );
    this.worker.on('exit', (code) => die(new Error(`file-build thread exited with ${code}`)));
  }

  attach(listener: (m: FromThread) => void, onDeath: (error: Error) => void) {
    this.listener = listener;
    this.onDeath = onDeath;
  }

  detach() {
    this.listener = undefined;
    this.onDeath = undefined;
  }

  post(message: ToThread, transfer: ArrayBuffer[] = []) {
    if (!this.dead) this.worker.postMessage(message, transfer);
  }
}

/** The server's file builds (reports, scheduled reports, telemetry exports). */
export class FileBuildPool {
  private readonly threads = new Set<BuildThread>();
  private readonly idle: BuildThread[] = [];
  private readonly waiting: ((thread: BuildThread) => void)[] = [];
  private readonly perOwner = new Map<number, number>();
  private nextId = 0;
  private closed = false;

  constructor(readonly limits: FileBuildLimits = defaultFileBuildLimits()) {}

  /**
   * Builds one file: checks the owner's limit (429 beyond it; `owner` null for the server's own jobs,
   * which only queue), waits for a thread, then lets `feed` read and send the data in parts, and answers
   * the file. An error of `feed` (a 400 or 404 of the data) cancels the build and is thrown as it is.
   */
  async build(
    owner: number | null,
    job: FileBuildJob,
    feed: (send: SendPart) => Promise<void>,
  ): Promise<Buffer> {
    if (this.closed) throw new Error('the file-build pool is closed');
    const mine = owner === null ? 0 : (this.perOwner.get(owner) ?? 0);
    if (mine >= this.limits.perUser || this.waiting.length >= this.limits.queueMax) {
      throw new HttpError(429, E.tooManyFileBuilds, undefined, {
        'retry-after': String(this.limits.retryAfterS),
      });
    }
    if (owner !== null) this.perOwner.set(owner, mine + 1);
    try {
      const thread = await this.acquire();
      try {
        return await this.runOn(thread, job, feed);
      } finally {
        this.release(thread);
      }
    } finally {
      if (owner !== null) {
        const left = (this.perOwner.get(owner) ?? 1) - 1;
        if (left > 0) this.perOwner.set(owner, left);
        else this.perOwner.delete(owner);
      }
    }
  }

  /** Builds in the making (running or queued) of one user. */
  buildsOf(owner: number): number {
    return this.perOwner.get(owner) ?? 0;
  }

  /** Ends the threads; builds in progress fail. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.threads].map((t) => t.worker.terminate()));
  }

  private acquire(): Promise<BuildThread> {
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.threads.size < this.limits.threads) {
      const fresh = new BuildThread(this.limits, (t) => this.threads.delete(t));
      this.threads.add(fresh);
      return Promise.resolve(fresh);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(thread: BuildThread) {
    thread.detach();
    // A thread that died (its heap limit) is replaced by a new one for the next waiter.
    const next = thread.dead ? (this.threads.size < this.limits.threads ? this.spawn() : undefined) : thread;
    if (!next) return;
    const waiter = this.waiting.shift();
    if (waiter) waiter(next);
    else this.idle.push(next);
  }

  private spawn(): BuildThread | undefined {
    if (this.closed) return undefined;
    const fresh = new BuildThread(this.limits, (t) => this.threads.delete(t));
    this.threads.add(fresh);
    return fresh;
  }

  private async runOn(
    thread: BuildThread,
    job: FileBuildJob,
    feed: (send: SendPart) => Promise<void>,
  ): Promise<Buffer> {
    const id = ++this.nextId;
    const chunks: Buffer[] = [];
    let inFlight = 0;
    let acked: (() => void) | undefined;
    const file = new Promise<Buffer>((resolve, reject) => {
      thread.attach((m) => {
        if (m.id !== id) return;
        if (m.type === 'chunk')
          chunks.push(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
        else if (m.type === 'ack') {
          inFlight--;
          acked?.();
        } else if (m.type === 'done') resolve(Buffer.concat(chunks));
        else reject(new Error(`file build failed: ${m.message}`));
      }, reject);
    });
    // Awaited below; until then a failure must not count as unhandled.
    file.catch(() => undefined);
    thread.post({ type: 'start', id, job });
    const send: SendPart = async (part, transfer = []) => {
      thread.post({ type: 'part', id, part }, transfer);
      inFlight++;
      while (inFlight >= PARTS_IN_FLIGHT) {
        const ack = new Promise<void>((resolve) => (acked = resolve));
        // A thread that fails meanwhile ends the wait with its error.
        await Promise.race([ack, file]);
      }
    };
    try {
      await feed(send);
    } catch (error) {
      thread.post({ type: 'cancel', id });
      throw error;
    }
    thread.post({ type: 'end', id });
    return file;
  }
}
