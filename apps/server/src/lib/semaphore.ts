/**
 * At most `limit` holders at once; the others wait in arrival order. Used where work holds a scarce
 * resource for a while (a pooled database connection) and must not take all of it.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error('a semaphore needs a limit of at least 1');
  }

  /** Runs `work` once a place is free, and frees it when `work` settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      // Hand the place straight to the next waiter (active stays), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** How many wait for a place now. */
  get queued(): number {
    return this.waiting.length;
  }
}
