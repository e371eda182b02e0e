import type { IngestCountReason } from '@solar/shared';
import type { Db } from '../db/database';
import {
  addIngestCounts,
  existingDeviceIds,
  readIngestCounts,
  type IngestCountRow,
} from './telemetry-store.repository';

/**
 * Where a failed flush is reported (the app's logger). Declared here rather than imported from
 * telemetry-store.ts, which imports IngestCounts: no import cycle, types included (docs/architecture.md).
 */
interface Logger {
  error(obj: unknown, msg?: string): void;
}

/** How often counted refusals and duplicates are written to device_ingest_counts. */
export const INGEST_COUNTS_FLUSH_MS = 5000;

/**
 * Per-device counters of refused points (per reason) and duplicates (identical or conflicting), kept in
 * memory and added to `device_ingest_counts` every INGEST_COUNTS_FLUSH_MS and on close.
 *
 * Why from memory and not in each batch's transaction: most refusals happen where no transaction is open
 * (a batch refused whole, an MQTT message with one bad value), and a write per refused message would let a
 * misbehaving device multiply the write load it causes; a flush costs one statement per few seconds
 * whatever the rate. What a crash can lose is at most the last few seconds of counts, which are a
 * diagnosis, not data. Reads add what is still pending, so an answer is never behind this process.
 */
export class IngestCounts {
  private pending = new Map<string, IngestCountRow>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  /** `onCount` is told of every count as it is made, device or not (the /metrics rejection counter listens). */
  constructor(
    private readonly ctx: {
      db: Db;
      now(): number;
      onCount?: (reason: IngestCountReason, n: number) => void;
    },
    private readonly log?: Logger,
  ) {}

  /**
   * Counts `n` points of the device for the reason, now. A point no device can be named for (an unknown
   * signal) is only told to `onCount`: it has no row to be stored in.
   */
  add(deviceId: number | null, reason: IngestCountReason, n = 1): void {
    if (n <= 0) return;
    this.ctx.onCount?.(reason, n);
    if (deviceId === null) return;
    const key = `${deviceId}:${reason}`;
    const row = this.pending.get(key);
    const now = this.ctx.now();
    if (row) {
      row.count += n;
      row.last_at = Math.max(row.last_at, now);
    } else this.pending.set(key, { device_id: deviceId, reason, count: n, last_at: now });
  }

  /** Writes what is pending; a failed write keeps it for the next flush. Flushes run one at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.size) return;
      const rows = [...this.pending.values()];
      this.pending = new Map();
      try {
        const alive = await existingDeviceIds(this.ctx.db, [...new Set(rows.map((r) => r.device_id))]);
        await addIngestCounts(
          this.ctx.db,
          rows.filter((r) => alive.has(r.device_id)),
        );
      } catch (error) {
        this.log?.error({ err: error }, 'ingest counts: write failed, kept for the next flush');
        for (const r of rows) this.merge(r);
      }
    });
    return this.flushing;
  }

  private merge(r: IngestCountRow) {
    const key = `${r.device_id}:${r.reason}`;
    const row = this.pending.get(key);
    if (!row) this.pending.set(key, { ...r });
    else {
      row.count += r.count;
      row.last_at = Math.max(row.last_at, r.last_at);
    }
  }

  /** Starts the periodic flush (the timer does not keep the process alive). */
  start(everyMs = INGEST_COUNTS_FLUSH_MS): void {
    this.timer ??= setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is pending. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** A device's counters: stored plus pending, by reason. */
  async read(deviceId: number): Promise<Map<string, { count: number; last_at: number }>> {
    // A flush under way has taken its rows out of `pending` but may not have written them yet.
    await this.flushing;
    const out = new Map<string, { count: number; last_at: number }>();
    for (const r of await readIngestCounts(this.ctx.db, deviceId))
      out.set(r.reason, { count: r.count, last_at: r.last_at });
    for (const r of this.pending.values()) {
      if (r.device_id !== deviceId) continue;
      const stored = out.get(r.reason);
      out.set(r.reason, {
        count: (stored?.count ?? 0) + r.count,
        last_at: Math.max(stored?.last_at ?? 0, r.last_at),
      });
    }
    return out;
  }
}
