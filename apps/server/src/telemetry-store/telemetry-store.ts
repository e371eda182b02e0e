import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';
import type SQLite from 'better-sqlite3';
import type { Db, Dialect } from '../db/database';
import {
  aggregateOf,
  aggregatePoints,
  mergeAggregates,
  rollUp,
  type Aggregate,
  type Point,
} from './aggregate';
import { dayAlignedToHours, dayRange, floorBucket } from './buckets';
import { batchRollups, bucketerFor, dayBucketer } from './batch-rollups';
import type { IngestCounts } from './ingest-counts';
import type { PointToStore, StoredPoint, StoreOptions, StoreResult, TelemetryHub } from './telemetry-hub';
import { SqliteStoreIo } from './sqlite-store-io';
import { kyselyStoreIo, type StoreIo } from './store-io';
import * as repo from './telemetry-store.repository';

const FIVE_MIN = FIXED_BUCKET_MS['5m'];
const HOUR = FIXED_BUCKET_MS['1h'];
export interface Logger {
  error(obj: unknown, msg?: string): void;
}

const RESOLUTIONS = ['5m', '1h', '1d'] as const;
const byTs = (a: Point, b: Point) => a.ts - b.ts;

/**
 * The TelemetryHub on the database: raw points with INSERT … ON CONFLICT DO NOTHING in multi-row chunks,
 * the latest value per signal, and the 5m/1h/1d rollups, all in one transaction per batch; listeners hear
 * about the inserted points after the commit.
 *
 * Rollups are kept two ways. A signal whose new points all come after its latest stored point (the normal
 * case, and any backfill in order) is **appended**: the new points are aggregated per bucket at each
 * resolution and merged into the one existing bucket they may share — no raw reads. A signal with a point
 * at or before its latest one is **recomputed**: its touched 5-minute buckets from raw (for a counter also the
 * next stored bucket, whose first step changed), then the touched hours from 5m and days from 1h (from 5m in
 * zones whose days do not start on whole hours).
 */
export class TelemetryStore implements TelemetryHub {
  private readonly listeners = new Set<(points: readonly StoredPoint[]) => void>();
  private readonly sqliteIo?: SqliteStoreIo;

  constructor(
    /**
     * `counts`, when given, hears of each device's identical and conflicting duplicates; `sqlite`, the
     * embedded database's own handle, lets batches run on prepared statements (sqlite-store-io.ts).
     */
    private readonly ctx: { db: Db; dialect: Dialect; sqlite?: SQLite.Database; counts?: IngestCounts },
    /** Where listener failures are reported; set once the server's logger exists. */
    public log?: Logger,
  ) {
    if (ctx.sqlite) this.sqliteIo = new SqliteStoreIo(ctx.sqlite);
  }

  /** The batch's reads and writes inside its transaction `trx`. */
  private io(trx: Db): StoreIo {
    return this.sqliteIo ?? kyselyStoreIo(trx, this.ctx.dialect);
  }

  onStored(listener: (points: readonly StoredPoint[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * `options.meta`, when the caller has just loaded it (the ingest route does, to check the points),
   * spares a second read; it must hold every signal of the points.
   */
  async store(points: readonly PointToStore[], options: StoreOptions = {}): Promise<StoreResult> {
    if (points.length === 0) return { inserted: 0, duplicates: 0, conflicting: 0 };
    const { db, dialect } = this.ctx;
    let meta = options.meta;
    let known = points;
    if (!meta) {
      const ids = [...new Set(points.map((p) => p.signal_id))];
      meta = await repo.loadSignalMeta(db, dialect, ids);
      // The contract says signals exist; one deleted meanwhile is dropped rather than failing the batch.
      if (meta.size < ids.length) known = points.filter((p) => meta!.has(p.signal_id));
    }
    const metaOf = meta;
    let conflictingByDevice = new Map<number, number>();
    const inserted = await db.transaction().execute(async (trx) => {
      const io = this.io(trx);
      const { rows, storedValues } = await io.insertRaw(known);
      if (rows.length < known.length)
        conflictingByDevice = await this.conflicts(trx, known, rows, metaOf, storedValues);
      if (rows.length === 0) return rows;
      await repo.lockRollups(trx, dialect);
      await this.maintain(trx, io, rows, metaOf);
      return rows;
    });
    const duplicates = known.length - inserted.length;
    let conflicting = 0;
    for (const n of conflictingByDevice.values()) conflicting += n;
    if (duplicates > 0 && this.ctx.counts) this.countDuplicates(known, inserted, meta, conflictingByDevice);
    if (inserted.length > 0 && this.listeners.size > 0) {
      const stored: StoredPoint[] = inserted.map((p) => {
        const m = meta.get(p.signal_id)!;
        return {
          signal_id: p.signal_id,
          ts: p.ts,
          value: p.value,
          device_id: m.device_id,
          plant_id: m.plant_id,
        };
      });
      for (const listener of this.listeners) {
        try {
          listener(stored);
        } catch (error) {
          this.log?.error({ err: error }, 'telemetry listener failed');
        }
      }
    }
    return { inserted: inserted.length, duplicates, conflicting };
  }

  /**
   * Of the points not inserted (their (signal, ts) was stored already, or came twice in this batch), how
   * many per device carry a different value than the stored one. Reads only those keys, and only when
   * there are duplicates at all and the insert did not already learn their values (`storedValues`): the
   * common batch pays nothing.
   */
  private async conflicts(
    db: Db,
    known: readonly PointToStore[],
    inserted: readonly repo.RawRow[],
    meta: ReadonlyMap<number, repo.SignalMeta>,
    storedValues?: ReadonlyMap<number, ReadonlyMap<number, number>>,
  ): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const conflict = (p: PointToStore) => {
      const device = meta.get(p.signal_id)!.device_id;
      out.set(device, (out.get(device) ?? 0) + 1);
    };
    if (storedValues) {
      // Every key of a point not inserted has its stored value there; an inserted point's own value is its.
      const taken = new Map<number, Set<number>>();
      for (const r of inserted) {
        let set = taken.get(r.signal_id);
        if (!set) taken.set(r.signal_id, (set = new Set()));
        set.add(r.ts);
      }
      for (const p of known) {
        const mine = taken.get(p.signal_id);
        // The first point of a key inserted in this batch is the stored one; any later one repeats it.
        if (mine?.delete(p.ts)) continue;
        const value = storedValues.get(p.signal_id)?.get(p.ts);
        if (value !== undefined && value !== p.value) conflict(p);
      }
      return out;
    }
    const fresh = new Set(inserted.map((r) => `${r.signal_id}:${r.ts}`));
    const repeated: PointToStore[] = [];
    for (const p of known) {
      const key = `${p.signal_id}:${p.ts}`;
      // The first point of a key inserted in this batch is the stored one; any later one repeats it.
      if (fresh.has(key)) fresh.delete(key);
      else repeated.push(p);
    }
    const stored = await repo.readRawValues(db, this.ctx.dialect, repeated);
    for (const p of repeated) {
      const value = stored.get(`${p.signal_id}:${p.ts}`);
      if (value !== undefined && value !== p.value) conflict(p);
    }
    return out;
  }

  /** Hands each device's identical and conflicting duplicates to the ingest counters. */
  private countDuplicates(
    known: readonly PointToStore[],
    inserted: readonly repo.RawRow[],
    meta: ReadonlyMap<number, repo.SignalMeta>,
    conflictingByDevice: Map<number, number>,
  ) {
    const offered = new Map<number, number>();
    for (const p of known) {
      const device = meta.get(p.signal_id)!.device_id;
      offered.set(device, (offered.get(device) ?? 0) + 1);
    }
    for (const r of inserted) {
      const device = meta.get(r.signal_id)!.device_id;
      offered.set(device, offered.get(device)! - 1);
    }
    for (const [device, duplicates] of offered) {
      const conflicting = conflictingByDevice.get(device) ?? 0;
      this.ctx.counts!.add(device, 'duplicate_identical', duplicates - conflicting);
      this.ctx.counts!.add(device, 'duplicate_conflicting', conflicting);
    }
  }

  /** Latest values and rollups for the newly inserted rows (inside the batch's transaction). */
  private async maintain(
    db: Db,
    io: StoreIo,
    rows: readonly repo.RawRow[],
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ) {
    const bySignal = new Map<number, Point[]>();
    for (const r of rows) {
      let list = bySignal.get(r.signal_id);
      if (!list) bySignal.set(r.signal_id, (list = []));
      // The row itself (a Point with its signal id): no copy of every point of the batch.
      list.push(r);
    }
    for (const list of bySignal.values()) list.sort(byTs);

    const latest = await io.readLatest([...bySignal.keys()]);
    const newest: repo.RawRow[] = [];
    const append = new Map<number, Point[]>();
    const recompute = new Map<number, Point[]>();
    for (const [signalId, list] of bySignal) {
      const last = list[list.length - 1]!;
      const before = latest.get(signalId);
      if (!before || last.ts > before.ts)
        newest.push({ signal_id: signalId, ts: last.ts, value: last.value });
      if (!before || list[0]!.ts > before.ts) append.set(signalId, list);
      else recompute.set(signalId, list);
    }
    await io.upsertLatest(newest);
    await io.upsertDeviceLastData(newestPerDevice(newest, meta));
    if (append.size) await this.append(io, append, latest, meta);
    for (const [signalId, list] of recompute)
      await this.recompute(db, io, signalId, list, meta.get(signalId)!);
  }

  /**
   * New points after everything stored: aggregate each signal's in memory (batch-rollups.ts), read the one
   * bucket per resolution they may share with stored data, and write one row per (signal, bucket).
   */
  private async append(
    io: StoreIo,
    bySignal: Map<number, Point[]>,
    latest: Map<number, Point>,
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ) {
    const fresh: Record<RollupResolution, repo.RollupRow[]> = { '5m': [], '1h': [], '1d': [] };
    const shared: Record<RollupResolution, { signal_id: number; bucket: number }[]> = {
      '5m': [],
      '1h': [],
      '1d': [],
    };
    const dayOfZone = new Map<string, (ts: number) => number>();
    for (const [signalId, list] of bySignal) {
      const m = meta.get(signalId)!;
      const before = latest.get(signalId);
      let dayOf = dayOfZone.get(m.time_zone);
      if (!dayOf) dayOfZone.set(m.time_zone, (dayOf = dayBucketer(m.time_zone)));
      const buckets = batchRollups(list, m.is_counter, before?.value ?? null, dayOf);
      for (const resolution of RESOLUTIONS) {
        for (const [bucket, agg] of buckets[resolution])
          fresh[resolution].push({ signal_id: signalId, bucket, ...agg });
        // Only the bucket of the latest stored point can already exist.
        if (before) {
          const bucket = bucketerFor(resolution, dayOf)(before.ts);
          if (buckets[resolution].has(bucket)) shared[resolution].push({ signal_id: signalId, bucket });
        }
      }
    }
    for (const resolution of RESOLUTIONS) {
      const rows = fresh[resolution];
      if (shared[resolution].length) {
        const existing = new Map(
          (await io.readRollupKeys(resolution, shared[resolution])).map((r) => [
            `${r.signal_id}:${r.bucket}`,
            r,
          ]),
        );
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i]!;
          const old = existing.get(`${row.signal_id}:${row.bucket}`);
          if (old)
            rows[i] = {
              signal_id: row.signal_id,
              bucket: row.bucket,
              ...mergeAggregates(aggregateOf(old), aggregateOf(row)),
            };
        }
      }
      await io.upsertRollups(resolution, rows);
    }
  }

  /** Points among or before stored ones: rebuild the touched buckets of one signal from the level below. */
  private async recompute(db: Db, io: StoreIo, signalId: number, list: Point[], m: repo.SignalMeta) {
    const touched5 = new Set(list.map((p) => floorBucket(p.ts, FIVE_MIN)));
    const first = Math.min(...touched5);
    let last = Math.max(...touched5);
    let previous: number | null = null;
    if (m.is_counter) {
      const around = await repo.rollupNeighbours(db, '5m', signalId, first, last);
      previous = around.previous?.last ?? null;
      // The next stored bucket's first step starts from a point that may have changed.
      if (around.next) {
        last = around.next.bucket;
        touched5.add(last);
      }
    }
    const raw = await repo.readRawRange(db, signalId, first, last + FIVE_MIN);
    const fives = aggregatePoints(raw, (ts) => floorBucket(ts, FIVE_MIN), m.is_counter, previous);
    const fiveRows: repo.RollupRow[] = [];
    for (const [bucket, agg] of fives) {
      // A counter's buckets between the touched ones may have a new first step: write them all.
      if (m.is_counter || touched5.has(bucket)) fiveRows.push({ signal_id: signalId, bucket, ...agg });
    }
    await io.upsertRollups('5m', fiveRows);

    const hours = new Set(fiveRows.map((r) => floorBucket(r.bucket, HOUR)));
    const hourFrom = Math.min(...hours);
    const hourTo = Math.max(...hours) + HOUR;
    const hourly = rollUp(await repo.readRollupRange(db, '5m', signalId, hourFrom, hourTo), (b) =>
      floorBucket(b, HOUR),
    );
    await io.upsertRollups('1h', rowsOf(signalId, hourly, hours));

    const dayOf = dayBucketer(m.time_zone);
    const days = new Set([...hours].map(dayOf));
    const dayFrom = Math.min(...days);
    const dayTo = dayRange(Math.max(...days), m.time_zone)[1];
    // Hours tile a local day only where the zone's offset is a whole number of hours.
    const source =
      dayAlignedToHours(dayFrom, m.time_zone) && dayAlignedToHours(dayTo - 1, m.time_zone) ? '1h' : '5m';
    const daily = rollUp(await repo.readRollupRange(db, source, signalId, dayFrom, dayTo), dayOf);
    await io.upsertRollups('1d', rowsOf(signalId, daily, days));
  }
}

function rowsOf(signalId: number, buckets: Map<number, Aggregate>, keep: Set<number>): repo.RollupRow[] {
  const out: repo.RollupRow[] = [];
  for (const [bucket, agg] of buckets)
    if (keep.has(bucket)) out.push({ signal_id: signalId, bucket, ...agg });
  return out;
}

/** The newest of these points per device. */
function newestPerDevice(
  rows: readonly repo.RawRow[],
  meta: ReadonlyMap<number, repo.SignalMeta>,
): { device_id: number; ts: number }[] {
  const out = new Map<number, number>();
  for (const r of rows) {
    const device = meta.get(r.signal_id)!.device_id;
    if (r.ts > (out.get(device) ?? -Infinity)) out.set(device, r.ts);
  }
  return [...out].map(([device_id, ts]) => ({ device_id, ts }));
}
