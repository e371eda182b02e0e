import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** One task holding the event loop longer than this is logged as a warning: every request waited for it. */
export const EVENT_LOOP_BLOCK_WARN_MS = 1000;
/** How often the watchdog's timer asks to run; a late run by more than the bound is a block. */
const WATCH_INTERVAL_MS = 100;
/** Sampling resolution of the delay histogram (Node's default is 10 ms). */
const HISTOGRAM_RESOLUTION_MS = 10;

/** Event-loop delay over one window (since the previous scrape), in seconds. */
export interface EventLoopFigures {
  p50Seconds: number;
  p99Seconds: number;
  maxSeconds: number;
  /** Blocks over EVENT_LOOP_BLOCK_WARN_MS since the server started. */
  blocks: number;
}

/** Where a block is reported: the server's logger. */
export interface BlockLog {
  warn(details: object, message: string): void;
}

const seconds = (ns: number) => ns / 1e9;

/**
 * Watches the event loop (docs/security.md "Dates and ranges"): perf_hooks' delay histogram for /metrics,
 * and a timer-drift watchdog that logs `event loop blocked` with the block's length when one task held the
 * loop for more than EVENT_LOOP_BLOCK_WARN_MS. A block cannot be reported while it lasts (the loop is
 * held); the warning comes as soon as the loop is free again.
 */
export class EventLoopWatch {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({
    resolution: HISTOGRAM_RESOLUTION_MS,
  });
  private timer: NodeJS.Timeout | undefined;
  private lastTickMs = 0;
  private blocks = 0;
  /** The watchdog's longest drift in the current window, ms. */
  private windowLongestMs = 0;

  constructor(
    private readonly log: BlockLog,
    private readonly warnAfterMs = EVENT_LOOP_BLOCK_WARN_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.histogram.enable();
    this.lastTickMs = performance.now();
    this.timer = setInterval(() => this.tick(), WATCH_INTERVAL_MS);
    // The watch never keeps the process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
  }

  /**
   * The figures since the previous call, which starts the next window (one call per scrape). Node's
   * histogram drops the first interval after a reset, so a block that starts right after a scrape would be
   * missing from it: the maximum also takes the watchdog's longest drift, which has no such gap.
   */
  takeFigures(): EventLoopFigures {
    const h = this.histogram;
    const figures = {
      p50Seconds: seconds(h.count ? h.percentile(50) : 0),
      p99Seconds: seconds(h.count ? h.percentile(99) : 0),
      maxSeconds: Math.max(seconds(h.count ? h.max : 0), this.windowLongestMs / 1000),
      blocks: this.blocks,
    };
    h.reset();
    this.windowLongestMs = 0;
    return figures;
  }

  private tick(): void {
    const nowMs = performance.now();
    const blockedMs = nowMs - this.lastTickMs - WATCH_INTERVAL_MS;
    this.lastTickMs = nowMs;
    this.windowLongestMs = Math.max(this.windowLongestMs, blockedMs);
    if (blockedMs <= this.warnAfterMs) return;
    this.blocks++;
    this.log.warn({ blockedMs: Math.round(blockedMs) }, 'event loop blocked');
  }
}
