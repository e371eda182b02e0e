/**
 * Sends the queue to the console through a transport (HTTPS ingest or MQTT, transport.ts) and removes a
 * batch only once the console acknowledged it as stored (docs/edge.md, "How it keeps readings").
 *
 * Live readings go first: each round sends the readings of the last `liveWindowMs` (after an outage, what
 * the devices said just now), then at most one batch of the backlog, oldest first, no more than
 * `backlogBatchesPerSecond`, so a week's backlog neither floods the console nor delays the live data.
 * Up to `backlogInFlight` backlog batches are on the wire at once: the next one is read from the queue
 * while the console stores the one before, because one at a time left both sides idle half of the drain
 * (docs/edge.md, "Tests and bench").
 * A 5xx, a refused key or no answer at all keeps the batch and waits, exponentially longer with jitter, up
 * to `maxBackoffMs`. A batch refused as a whole (a 400, an `invalid` ack: it cannot become valid by waiting)
 * leaves the queue, counted with the points the console refused one by one.
 */
import { TELEMETRY_MAX_POINTS } from '@solar/shared';
import { BatchRefusedError, type ReadingTransport } from './transport';
import type { Log } from './log';
import type { QueuedReading, ReadingQueue } from './queue';

export interface SenderOptions {
  queue: ReadingQueue;
  transport: ReadingTransport;
  log: Log;
  /** Points per batch, at most the ingest's limit. */
  batchSize?: number;
  backlogBatchesPerSecond?: number;
  /** Backlog batches sent before the answer to the first one. */
  backlogInFlight?: number;
  liveWindowMs?: number;
  /** Pause when there is nothing to send. */
  idleMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind either way. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** The drain's defaults (docs/edge.md, "Configuration"): at most 100,000 readings a second from one agent. */
export const DEFAULT_BATCH_SIZE = TELEMETRY_MAX_POINTS;
export const DEFAULT_BACKLOG_BATCHES_PER_SECOND = 10;
export const DEFAULT_BACKLOG_IN_FLIGHT = 2;

export class Sender {
  lastSentAt: number | null = null;
  sentPoints = 0;
  private failuresInARow = 0;
  private stopping = new AbortController();
  private loopDone: Promise<void> | undefined;
  private nextBacklogAt = 0;
  private readonly batchSize: number;
  private readonly backlogInFlight: number;
  /** Backlog batches on the wire. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The last reading of the last backlog batch read; the next read starts after it. */
  private backlogCursor: QueuedReading | undefined;
  private backlogFailed = false;

  constructor(private readonly options: SenderOptions) {
    this.batchSize = Math.min(TELEMETRY_MAX_POINTS, Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE));
    this.backlogInFlight = Math.max(1, Math.floor(options.backlogInFlight ?? DEFAULT_BACKLOG_IN_FLIGHT));
  }

  start(): void {
    this.loopDone = this.loop();
  }

  /** Finishes the batch on the wire (its answer removes it or keeps it), then stops. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    const { queue } = this.options;
    const liveWindowMs = this.options.liveWindowMs ?? 20_000;
    const idleMs = this.options.idleMs ?? 1_000;
    while (!this.stopping.signal.aborted) {
      const liveFrom = Date.now() - liveWindowMs;
      const live = queue.since(liveFrom, this.batchSize);
      let failed = live.length > 0 && !(await this.send(live));
      failed ||= this.backlogFailed;
      this.backlogFailed = false;
      let backlogLeft = true;
      if (!failed && !this.stopping.signal.aborted) backlogLeft = this.sendBacklog(liveFrom);
      let waitMs: number;
      if (failed) waitMs = this.backoffMs();
      // More live readings than a batch (small batches, or an outage shorter than the live window): at once.
      else if (live.length === this.batchSize) waitMs = 0;
      else if (!backlogLeft || queue.depth === 0) waitMs = idleMs;
      else if (this.inFlight.size < this.backlogInFlight)
        waitMs = Math.min(Math.max(this.nextBacklogAt - Date.now(), 0), idleMs);
      else waitMs = idleMs;
      // An answer frees a slot for the next backlog batch: it wakes the loop before the wait is over.
      await Promise.race([sleep(waitMs, this.stopping.signal), ...(failed ? [] : this.inFlight)]);
    }
    await Promise.all(this.inFlight);
  }

  /**
   * Puts the next backlog batch on the wire when the rate and the batches in flight allow; false when the
   * queue holds no backlog beyond what is on the wire.
   */
  private sendBacklog(liveFrom: number): boolean {
    if (this.inFlight.size >= this.backlogInFlight || Date.now() < this.nextBacklogAt) return true;
    const batch = this.options.queue.oldest(this.batchSize, liveFrom, this.backlogCursor);
    if (!batch.length) {
      // Caught up: the next read starts at the oldest again, which also finds a reading queued late with a
      // time before the cursor (a slow poll), and one whose batch failed.
      this.backlogCursor = undefined;
      return false;
    }
    this.backlogCursor = batch.at(-1);
    this.nextBacklogAt =
      Date.now() + 1000 / (this.options.backlogBatchesPerSecond ?? DEFAULT_BACKLOG_BATCHES_PER_SECOND);
    const sending: Promise<void> = this.send(batch).then((ok) => {
      this.inFlight.delete(sending);
      if (!ok) {
        // Read again from the oldest: a batch still on the wire may be sent twice, which the console
        // stores once.
        this.backlogFailed = true;
        this.backlogCursor = undefined;
      }
    });
    this.inFlight.add(sending);
    return true;
  }

  /** Capped exponential back-off with jitter after failures in a row. */
  private backoffMs(): number {
    const base = Math.min(
      this.options.maxBackoffMs ?? 60_000,
      (this.options.minBackoffMs ?? 1_000) * 2 ** Math.min(Math.max(this.failuresInARow, 1) - 1, 20),
    );
    return base / 2 + (Math.random() * base) / 2;
  }

  /** One batch; true when the console acknowledged it (or refused it for good). */
  private async send(batch: QueuedReading[]): Promise<boolean> {
    const { queue, transport, log } = this.options;
    try {
      const answer = await transport.send(
        batch.map((r) => ({ signal_id: r.signal_id, ts: r.ts, value: r.value })),
      );
      queue.ack(batch, answer.rejected.length);
      if (answer.rejected.length) {
        log('warn', 'console refused some readings', {
          count: answer.rejected.length,
          first: answer.rejected[0],
        });
      }
      this.lastSentAt = Date.now();
      this.sentPoints += batch.length;
      this.failuresInARow = 0;
      return true;
    } catch (error) {
      if (error instanceof BatchRefusedError) {
        queue.ack(batch, batch.length);
        log('error', 'console refused a batch as a whole: dropped', {
          count: batch.length,
          answer: error.detail.slice(0, 500),
        });
        this.failuresInARow = 0;
        return true;
      }
      this.failuresInARow++;
      log(this.failuresInARow === 1 ? 'warn' : 'debug', 'sending failed; the batch stays queued', {
        err: error instanceof Error ? error.message : String(error),
        failuresInARow: this.failuresInARow,
      });
      return false;
    }
  }
}
