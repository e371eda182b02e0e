import type { PointToStore } from '../../telemetry-store/telemetry-hub';

interface Batch {
  points: PointToStore[];
  messages: number;
  done: Promise<void>;
  settle(error?: Error): void;
}

/**
 * Gathers the points of several messages into one store call (one transaction): a batch goes when it
 * holds `maxMessages` messages, or `windowMs` after its first message. Batches are stored one after the
 * other, in order, so that the next one fills while the previous one commits.
 *
 * Every message of a batch learns the outcome of that batch: `enqueue` resolves once the batch is
 * committed and rejects when it could not be stored. The caller acknowledges a message to the broker only
 * on resolve, so "acknowledged" always means "stored".
 */
export class CommitBatcher {
  private waiting: Batch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    /** Stores one batch in one transaction; rejects when it could not be stored. */
    private readonly store: (points: PointToStore[]) => Promise<void>,
    private readonly windowMs: number,
    private readonly maxMessages: number,
  ) {
    if (!(maxMessages >= 1)) throw new Error('maxMessages must be at least 1');
  }

  /** Adds one message's points; resolves when its batch is committed, rejects when that batch failed. */
  enqueue(points: readonly PointToStore[]): Promise<void> {
    const batch = (this.waiting ??= newBatch());
    batch.points.push(...points);
    batch.messages++;
    if (batch.messages >= this.maxMessages || this.windowMs <= 0) void this.flush().catch(() => undefined);
    else this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.windowMs);
    return batch.done;
  }

  /** Sends what waits now; resolves when every batch so far is settled, rejects when this one failed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = undefined;
    if (!batch) return this.chain;
    const stored = this.chain.then(() => this.store(batch.points));
    stored.then(
      () => batch.settle(),
      (error: unknown) => batch.settle(error instanceof Error ? error : new Error('batch not stored')),
    );
    this.chain = stored.catch(() => undefined);
    return stored;
  }

  /** Forgets the batch not yet sent, as a crash would (its messages reject; nothing is stored of it). */
  discardWaiting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting?.settle(new Error('discarded'));
    this.waiting = undefined;
  }

  /** Messages waiting for the next batch to be sent. */
  get waitingMessages(): number {
    return this.waiting?.messages ?? 0;
  }
}

function newBatch(): Batch {
  let settle!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  // Rejections reach every enqueue caller; this keeps a batch nobody awaits from being "unhandled".
  done.catch(() => undefined);
  return { points: [], messages: 0, done, settle };
}
