/**
 * Sends the queue to the console through a transport (HTTPS ingest or MQTT, transport.ts) and removes a
 * batch only once the console acknowledged it as stored (docs/edge.md, "How it keeps readings").
 *
 * Live readings go first: each round sends the readings of the last `liveWindowMs` (after an outage, what
 * the devices said just now), then at most one batch of the backlog, oldest first, no more than
 * `backlogBatchesPerSecond`, so a week's backlog neither floods the console nor delays the live data.
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

export class Sender {
  lastSentAt: number | null = null;
  sentPoints = 0;
  private failuresInARow = 0;
  private stopping = new AbortController();
  private loopDone: Promise<void> | undefined;
  private nextBacklogAt = 0;
  private readonly batchSize: number;

  constructor(private readonly options: SenderOptions) {
    this.batchSize = Math.min(TELEMETRY_MAX_POINTS, Math.max(1, options.batchSize ?? 5_000));
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
    const backlogGapMs = 1000 / (this.options.backlogBatchesPerSecond ?? 2);
    while (!this.stopping.signal.aborted) {
      let sent = false;
      let failed = false;
      const liveFrom = Date.now() - liveWindowMs;
      const live = queue.since(liveFrom, this.batchSize);
      if (live.length) {
        sent = true;
        failed = !(await this.send(live));
      }
      if (!failed && !this.stopping.signal.aborted && Date.now() >= this.nextBacklogAt) {
        const backlog = queue.oldest(this.batchSize, liveFrom);
        if (backlog.length) {
          sent = true;
          this.nextBacklogAt = Date.now() + backlogGapMs;
          failed = !(await this.send(backlog));
        }
      }
      if (failed) {
        const base = Math.min(
          this.options.maxBackoffMs ?? 60_000,
          (this.options.minBackoffMs ?? 1_000) * 2 ** Math.min(this.failuresInARow - 1, 20),
        );
        await sleep(base / 2 + (Math.random() * base) / 2, this.stopping.signal);
      } else if (!sent || queue.depth === 0) {
        await sleep(this.options.idleMs ?? 1_000, this.stopping.signal);
      } else if (Date.now() < this.nextBacklogAt && queue.since(Date.now() - liveWindowMs, 1).length === 0) {
        await sleep(
          Math.min(this.nextBacklogAt - Date.now(), this.options.idleMs ?? 1_000),
          this.stopping.signal,
        );
      }
    }
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
