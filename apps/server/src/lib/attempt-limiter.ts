/**
 * Counts attempts per key in a sliding window (login failures per IP and per email; reset requests).
 * In memory for one node; the interface is what a Redis-backed store for several nodes will implement.
 */
export interface AttemptLimiter {
  /** Seconds until the key may try again, or 0 when it is under the limit. */
  blockedFor(key: string): number;
  record(key: string): void;
  reset(key: string): void;
}

export class MemoryAttemptLimiter implements AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.attempts.set(key, list);
    else this.attempts.delete(key);
    return list;
  }

  blockedFor(key: string): number {
    const list = this.recent(key);
    if (list.length < this.max) return 0;
    return Math.max(1, Math.ceil((list[list.length - this.max]! + this.windowMs - this.now()) / 1000));
  }

  record(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.attempts.set(key, list);
    if (this.attempts.size > 100_000) this.sweep();
  }

  reset(key: string): void {
    this.attempts.delete(key);
  }

  /** Drops expired keys so that an attack from many addresses cannot grow memory without bound. */
  private sweep(): void {
    for (const key of this.attempts.keys()) this.recent(key);
  }
}
