/** A part that runs until it is stopped (a timer, a thread, a connection, a subscription). */
export interface Running {
  stop(): unknown;
}

type Log = { error(details: object, message: string): void };

interface Entry {
  name: string;
  /** Runs when the server is ready; answers what is then running, if it was not running already. */
  start?: () => unknown;
  running?: Running;
}

/**
 * The server's long-running parts in one list, in the order they start. `start` (the app's onReady) starts
 * them one after the other; `stop` (the app's onClose) stops what runs in the reverse order, so a part stops
 * before what it was started on (the jobs before the lease, everything before the database). A part that
 * fails to stop is logged and the others still stop; the first failure is thrown once all have stopped.
 * docs/architecture.md ("Long-running parts") lists the parts and their order.
 */
export class Lifecycle {
  private readonly entries: Entry[] = [];
  private started = false;

  constructor(private readonly log: Log) {}

  /**
   * A part that runs from the moment it was built (the database, a thread): stopped at close even when the
   * server was never ready. `ready`, when given, is awaited in the part's place at start.
   */
  built(name: string, part: Running, ready?: () => Promise<unknown>): void {
    this.entries.push({ name, running: part, ...(ready ? { start: ready } : {}) });
  }

  /** A part that starts when the server is ready; answers it while it runs. */
  onReady<T extends Running>(name: string, start: () => T | Promise<T>): () => T | undefined {
    const entry: Entry = {
      name,
      start: async () => {
        entry.running = await start();
      },
    };
    this.entries.push(entry);
    return () => entry.running as T | undefined;
  }

  /** The parts' names in start order (close stops them backwards). */
  order(): string[] {
    return this.entries.map((entry) => entry.name);
  }

  /** Starts every part in order; runs once. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const entry of this.entries) await entry.start?.();
  }

  /** Stops every running part, last started first. */
  async stop(): Promise<void> {
    let failure: unknown;
    for (const entry of [...this.entries].reverse()) {
      const running = entry.running;
      if (!running) continue;
      entry.running = undefined;
      try {
        await running.stop();
      } catch (error) {
        this.log.error({ err: error, part: entry.name }, 'shutdown: a part failed to stop');
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
