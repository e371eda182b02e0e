import type { PointToStore } from '../../telemetry-store/telemetry-hub';

interface Waiting {
  points: PointToStore[];
  done: Promise<void>;
  resolve(): void;
}

/**
 * Gathers points into batches for one store call each: a batch goes when it holds `maxBatchPoints`, or
 * `flushIntervalMs` after its first points (at once with 0). Batches are stored one after the other.
 */
export class PointBatcher {
  private waiting: Waiting | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    /** Stores one batch; rejects when it could not be stored. */
    private readonly store: (points: PointToStore[]) => Promise<void>,
    private readonly flushIntervalMs: number,
    private readonly maxBatchPoints: number,
  ) {}

  /** Stores what waits now; resolves when every batch so far is done, rejects when this one failed. */
  flush(): Promise<void> {
    this.cancelTimer();
    const batch = this.waiting;
    this.waiting = undefined;
    if (!batch) return this.flushing;
    this.flushing = this.flushing.then(() =>
      this.store(batch.points).then(
        () => batch.resolve(),
        () => {
          batch.resolve();
          throw new Error('not stored');
        },
      ),
    );
    const mine = this.flushing;
    this.flushing = this.flushing.catch(() => undefined);
    return mine;
  }

  /**
   * Queues points; resolves when their batch is done. It rejects when the batch could not be stored and
   * this call sent it; points sent by the timer resolve either way (they were acknowledged already).
   */
  enqueue(points: readonly PointToStore[]): Promise<void> {
    if (!this.waiting) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      this.waiting = { points: [], done, resolve };
    }
    const batch = this.waiting;
    batch.points.push(...points);
    return new Promise<void>((resolve, reject) => {
      const sent =
        batch.points.length >= this.maxBatchPoints || this.flushIntervalMs === 0 ? this.flush() : undefined;
      if (sent) sent.then(resolve, reject);
      else {
        this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.flushIntervalMs);
        void batch.done.then(resolve);
      }
    });
  }

  /** Drops the pending timer (what waits is stored by the next flush). */
  cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
