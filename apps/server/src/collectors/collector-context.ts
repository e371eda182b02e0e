import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import type { TelemetryHub } from '../telemetry-store/telemetry-hub';

/**
 * What a collector needs: the database, the clock, the configuration, the one door telemetry goes in by,
 * and the per-device counters of what it refuses.
 */
export type CollectorContext = Pick<AppContext, 'db' | 'now' | 'config' | 'settings' | 'ingestCounts'> & {
  telemetry: TelemetryHub;
};

export type CollectorLog = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * Logs at most one warning per `key` every `intervalMs`, with how many were held back since: a broker
 * flooding bad messages must not flood the log too.
 */
export class RateLimitedWarn {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  constructor(
    private readonly log: CollectorLog,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(key: string, details: Record<string, unknown>, message: string): void {
    const now = this.now();
    const entry = this.last.get(key);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed++;
      return;
    }
    this.log.warn({ ...details, suppressed: entry?.suppressed ?? 0 }, message);
    this.last.set(key, { at: now, suppressed: 0 });
  }
}
