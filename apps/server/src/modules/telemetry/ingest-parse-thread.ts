/**
 * Large ingest bodies parsed on a thread of their own.
 *
 * A 10,000-point body is about 530 KB of JSON. Decoding and parsing it takes about 2.6 ms, and checking its
 * points another half; the objects it makes cost the collector more later. That is a seventh of what the
 * event loop spends on such a batch; the SQLite insert beside it cannot leave the loop (one connection).
 * So a body from PARSE_THREAD_MIN_BYTES up goes to this thread, which answers the checked points as three
 * columns (ingest-columns.ts) moved back without a copy; the service reads them as they are and makes one
 * object per accepted point, the one that is stored and handed to the listeners.
 *
 * Anything but the common shape (ISO timestamps, invalid JSON, an escape sequence or a key the secure
 * parser screens for) comes back unanswered, and the main thread parses it exactly as before: the same
 * parser, the same errors. If the thread fails or exits, every body is parsed on the main thread again.
 */
import { Worker } from 'node:worker_threads';
import { ingestColumnsOf, type IngestColumnLimits, type IngestColumns } from './ingest-columns';

/** Bodies below this size are parsed on the loop: a round trip to the thread costs about 0.1 ms. */
export const PARSE_THREAD_MIN_BYTES = 64 * 1024;

/**
 * The thread's code: plain CommonJS run with `eval`, so it works the same from the esbuild bundle and
 * from the TypeScript sources under vitest and tsx (as the WAL checkpointer's thread). The check is
 * ingestColumnsOf's own source. A text holding `\u` escapes, `__proto__` or `constructor` is left to the
 * main thread, whose secure parser refuses the poisoning keys however they are escaped.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const ingestColumnsOf = ${ingestColumnsOf.toString()};
parentPort.on('message', ({ id, bytes }) => {
  let columns;
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (!text.includes('\\\\u') && !text.includes('__proto__') && !text.includes('constructor'))
      columns = ingestColumnsOf(JSON.parse(text), workerData.limits);
  } catch {
    // Invalid JSON: the main thread's parser answers it with its own error.
  }
  if (!columns) return parentPort.postMessage({ id });
  parentPort.postMessage({ id, columns }, [columns.signal_id.buffer, columns.ts.buffer, columns.value.buffer]);
});
`;

type Pending = (columns: IngestColumns | undefined) => void;

/** The parse thread: started on first use, answers in order of asking, unref'd (never keeps a process up). */
export class IngestParseThread {
  private worker?: Worker;
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly limits: IngestColumnLimits,
    private readonly warn: (details: object, message: string) => void,
  ) {}

  /**
   * The checked columns of a JSON body, or undefined when the main thread must parse it (not the common
   * shape, not JSON, or no thread). A copy of the bytes goes to the thread, so the caller keeps the body to
   * parse itself if need be (copying 500 KB takes about 50 µs).
   */
  parse(bytes: Uint8Array): Promise<IngestColumns | undefined> {
    const worker = this.thread();
    if (!worker) return Promise.resolve(undefined);
    const id = this.nextId++;
    const sent = new Uint8Array(bytes);
    return new Promise<IngestColumns | undefined>((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ id, bytes: sent }, [sent.buffer]);
    });
  }

  /** The running thread, if any (tests end it to see the main thread take over). */
  get current(): Worker | undefined {
    return this.worker;
  }

  /** Ends the thread; bodies still on it are answered "parse on the main thread". */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failed = true;
    this.settleAll();
    await worker?.terminate();
  }

  private thread(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(WORKER_CODE, { eval: true, workerData: { limits: this.limits } });
      worker.unref();
      worker.on('message', (m: { id: number; columns?: IngestColumns }) => {
        const resolve = this.pending.get(m.id);
        this.pending.delete(m.id);
        resolve?.(m.columns);
      });
      worker.on('error', (error) => this.fail(worker, error));
      worker.on('exit', (code) => this.fail(worker, new Error(`the ingest parse thread exited (${code})`)));
      this.worker = worker;
    } catch (error) {
      this.fail(undefined, error);
    }
    return this.worker;
  }

  private fail(worker: Worker | undefined, error: unknown) {
    if (worker && worker !== this.worker) return;
    if (!this.failed)
      this.warn({ err: error }, 'ingest parse thread failed: large bodies are parsed on the main thread');
    this.failed = true;
    this.worker = undefined;
    this.settleAll();
  }

  private settleAll() {
    for (const resolve of this.pending.values()) resolve(undefined);
    this.pending.clear();
  }
}
