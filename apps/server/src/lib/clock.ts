/**
 * The server's one clock, made before anything that reads the time. Services are handed `clock.now`; a test
 * moves time for all of them at once by assigning `ctx.now` (AppContext's accessor sets `read`).
 */
export class Clock {
  constructor(public read: () => number = Date.now) {}

  /** The time now, epoch ms, from whatever `read` is at the moment of the call. */
  readonly now = (): number => this.read();
}
