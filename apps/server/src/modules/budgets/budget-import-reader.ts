/**
 * Budget files are read off the event loop: each upload gets a thread of its own with a bounded heap and a
 * deadline (BUDGET_READER_THREAD), ended as soon as it has answered, so that a hostile file costs the
 * server neither its responsiveness nor its memory (docs/security.md, "Uploads"). Ending the thread returns
 * every byte it took, whatever the file did. Starting one takes about 30 ms on an idle machine but a
 * second under heavy load, so one thread is kept started for the next file (from the first import on).
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../lib/thread-entry';
import { BUDGET_FILE_LIMITS, BUDGET_READER_THREAD, type BudgetFileLimits } from './budget-file-limits';
import type { BudgetFile, FileRefusal } from './budget-file-reader';
import { READER_READY, type Envelope } from './budget-import-envelope';

/** What the thread is sent, once. */
export interface ReaderStart {
  /** The request's body as it came (JSON around the base64 file), moved to the thread without a copy. */
  body: Uint8Array;
  limits: BudgetFileLimits;
}

/**
 * The body's bytes in a buffer of their own, so it can be moved to the thread: Fastify's buffer may be a
 * slice of a larger one (a copy of at most 12 MB, natively, well under a millisecond per MB).
 */
function ownBytes(body: Buffer): Uint8Array {
  const own = body.byteOffset === 0 && body.buffer.byteLength === body.length;
  return own ? new Uint8Array(body.buffer, 0, body.length) : new Uint8Array(body);
}

/** What the thread answers, once: the rows, the file's refusal, or the envelope's (JSON or schema). */
export type ReaderAnswer =
  { ok: true; file: BudgetFile } | { ok: false; reason: FileRefusal } | Extract<Envelope, { ok: false }>;

interface ReaderThread {
  worker: Worker;
  /** Set once the thread has failed or exited: it must not be given a file. */
  gone: boolean;
  /** Resolves once the thread has loaded its modules (READER_READY). */
  ready: Promise<void>;
}

function startThread(): ReaderThread {
  const entry = threadEntry('budget-import-thread.js', new URL('./budget-import-thread.ts', import.meta.url));
  const worker = new Worker(entry, {
    resourceLimits: {
      maxOldGenerationSizeMb: BUDGET_READER_THREAD.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: BUDGET_READER_THREAD.maxYoungGenerationSizeMb,
    },
  });
  // A thread waiting for a file never keeps the process up.
  worker.unref();
  const ready = new Promise<void>((resolve) => {
    const onReady = (message: unknown) => {
      if (message !== READER_READY) return;
      worker.off('message', onReady);
      resolve();
    };
    worker.on('message', onReady);
  });
  const thread: ReaderThread = { worker, gone: false, ready };
  const gone = () => (thread.gone = true);
  worker.on('error', gone);
  worker.on('exit', gone);
  return thread;
}

/**
 * Gives the file to the thread and waits for its answer, then ends the thread. A thread that runs out of
 * its heap or time refuses the file as too large; one that fails otherwise rejects (a fault of ours: 500).
 */
function answerOf({ worker, ready }: ReaderThread, body: Buffer): Promise<ReaderAnswer> {
  return new Promise<ReaderAnswer>((resolve, reject) => {
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      outcome();
    };
    // The deadline bounds the reading, not the loading of the thread's modules: those take seconds when
    // run from sources on a loaded machine (tsx transpiles zod and the shared schemas), and no file can
    // make them slower.
    void ready.then(() => {
      if (settled) return;
      deadline = setTimeout(
        () => settle(() => resolve({ ok: false, reason: 'tooLarge' })),
        BUDGET_READER_THREAD.timeoutMs,
      );
    });
    const onAnswer = (answer: ReaderAnswer | typeof READER_READY) => {
      if (answer === READER_READY) return;
      worker.off('message', onAnswer);
      settle(() => resolve(answer));
    };
    worker.on('message', onAnswer);
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? resolve({ ok: false, reason: 'tooLarge' })
          : reject(error),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`budget reader thread exited with ${code} before answering`))),
    );
    const bytes = ownBytes(body);
    const start: ReaderStart = { body: bytes, limits: BUDGET_FILE_LIMITS };
    worker.postMessage(start, [bytes.buffer as ArrayBuffer]);
  });
}

/** The reader threads of one app: one per file being read, and one started for the next file. */
export class BudgetReaderThreads {
  private spare?: ReaderThread;
  private closed = false;

  /** Reads the request's body (the JSON envelope and the file in it) on a thread of its own. */
  read(body: Buffer): Promise<ReaderAnswer> {
    const thread = this.spare && !this.spare.gone ? this.spare : startThread();
    this.spare = this.closed ? undefined : startThread();
    return answerOf(thread, body);
  }

  /** Ends the spare thread (files being read finish on their own). */
  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    if (spare) await spare.worker.terminate();
  }
}
