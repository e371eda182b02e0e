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
 * other, in order, so that the next one fills while the previous one commits; a batch whose window ends
 * while another commits keeps filling until that commit is done (group commit), so that under load the
 * transactions grow instead of queueing up.
 *
 * Every message of a batch learns the outcome of that batch: `enqueue` resolves once the batch is
 * committed and rejects when it could not be stored. The caller acknowledges a message to the broker only
 * on resolve, so "acknowledged" always means "stored".
 */
export class CommitBatcher {
  private waiting: Batch | undefined;
  /** Full (or flushed) batches waiting for the store, oldest first. */
  private readonly sealed: Batch[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The waiting batch's window is over: it goes as soon as the store is free. */
  private due = false;
  private storing = false;
  /** The last batch handed on (settles after every one before it); never rejects. */
  private tail: Promise<void> = Promise.resolve();

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
    for (const p of points) batch.points.push(p);
    batch.messages++;
    if (batch.messages >= this.maxMessages || this.windowMs <= 0) this.seal();
    else
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.due = true;
        this.next();
      }, this.windowMs);
    return batch.done;
  }

  /** Sends what waits now; resolves when every batch so far is settled, rejects when this one failed. */
  flush(): Promise<void> {
    const batch = this.waiting;
    this.seal();
    return batch ? batch.done : this.tail;
  }

  /** Forgets the batches not yet sent, as a crash would (their messages reject; nothing of them is stored). */
  discardWaiting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
    for (const batch of this.sealed.splice(0)) batch.settle(new Error('discarded'));
    this.waiting?.settle(new Error('discarded'));
    this.waiting = undefined;
  }

  /** Messages waiting for the next batch to be sent. */
  get waitingMessages(): number {
    return this.waiting?.messages ?? 0;
  }

  /** Closes the waiting batch and hands it to the store (after those before it). */
  private seal(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
    if (this.waiting) {
      this.sealed.push(this.waiting);
      this.tail = this.waiting.done.catch(() => undefined);
      this.waiting = undefined;
    }
    this.next();
  }

  /** Stores the next batch, unless one is being stored (its end calls this again). */
  private next(): void {
    if (this.storing) return;
    if (this.sealed.length === 0 && this.due) return this.seal();
    const batch = this.sealed.shift();
    if (!batch) return;
    this.storing = true;
    void Promise.resolve()
      .then(() => this.store(batch.points))
      .then(
        () => batch.settle(),
        (error: unknown) => batch.settle(error instanceof Error ? error : new Error('batch not stored')),
      )
      .finally(() => {
        this.storing = false;
        this.next();
      });
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
