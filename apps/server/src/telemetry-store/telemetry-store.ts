import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';
import type SQLite from 'better-sqlite3';
import type { Db, Dialect } from '../db/database';
import { aggregateOf, aggregatePoints, mergeAggregates, type Aggregate, type Point } from './aggregate';
import { bucketRun, floorBucket } from './buckets';
import { batchRollups, bucketerFor, dayBucketer } from './batch-rollups';
import type { IngestCounts } from './ingest-counts';
import type { PointToStore, StoredPoint, StoreOptions, StoreResult, TelemetryHub } from './telemetry-hub';
import { SqliteStoreIo } from './sqlite-store-io';
import { kyselyStoreIo, type StoreIo } from './store-io';
import { Semaphore } from '../lib/semaphore';
import * as repo from './telemetry-store.repository';

/** Ingest batches inside their transaction at once per process (see `TelemetryStore.batches`). */
export const STORE_BATCHES_IN_FLIGHT = 2;

const FIVE_MIN = FIXED_BUCKET_MS['5m'];

/** What one batch's transaction wrote: the points that were new (in order), and conflicts per device. */
export interface BatchWritten {
  rows: repo.RawRow[];
  conflictingByDevice: Map<number, number>;
}

/** Runs batches' transactions elsewhere (the SQLite writer thread); undefined when it cannot (stopped). */
export interface BatchWriter {
  write(
    known: readonly PointToStore[],
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ): Promise<BatchWritten> | undefined;
}
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
 * Rollups are kept three ways. A signal whose new points all come after its latest stored point (the normal
 * case, and any backfill in order) is **appended**: the new points are aggregated per bucket at each
 * resolution and merged into the one existing bucket they may share — no raw reads. A gauge (not a
 * counter) with a point at or before its latest one is **merged** the same way into every bucket it
 * touches: min, max, sum, count, first and last do not depend on the order points come in. A counter with
 * such a point is **recomputed**: its touched 5-minute buckets from raw (with the next stored bucket, whose
 * first step changed), then the touched hours and days from their stored rows, the new points and the
 * change of their 5-minute deltas. MQTT over several connections delivers a device's messages slightly
 * out of order during any backlog, so the last two are a hot path too (docs/benchmarks.md, MQTT).
 */
export class TelemetryStore implements TelemetryHub {
  private readonly listeners = new Set<(points: readonly StoredPoint[]) => void>();
  private readonly sqliteIo?: SqliteStoreIo;

  constructor(
    /**
     * `counts`, when given, hears of each device's identical and conflicting duplicates; `sqlite`, the
     * embedded database's own handle, lets batches run on prepared statements (sqlite-store-io.ts);
     * `writer`, when given and running, runs the batches' transactions instead (batch-writer.ts).
     */
    private readonly ctx: {
      db: Db;
      dialect: Dialect;
      sqlite?: SQLite.Database;
      counts?: IngestCounts;
      writer?: BatchWriter;
    },
    /** Where listener failures are reported; set once the server's logger exists. */
    public log?: Logger,
  ) {
    if (ctx.sqlite) this.sqliteIo = new SqliteStoreIo(ctx.sqlite);
  }

  /**
   * Batches in their transaction at once, per process. On PostgreSQL a batch waits for the rollup locks of
   * its devices (`lockRollups`) while it holds a pooled connection: under the load suite (20 batches a
   * second), when one lock served all devices, the waiting batches took the whole pool and the pages' reads
   * queued behind them for seconds. Two is enough to overlap one batch's raw insert with another's rollups;
   * the other batches wait here, holding nothing. SQLite has one connection, which Kysely serialises anyway.
   */
  private readonly batches = new Semaphore(STORE_BATCHES_IN_FLIGHT);

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
    const { rows: inserted, conflictingByDevice } = await this.batches.run(
      () => this.ctx.writer?.write(known, metaOf) ?? this.writeBatch(known, metaOf),
    );
    const duplicates = known.length - inserted.length;
    let conflicting = 0;
    for (const n of conflictingByDevice.values()) conflicting += n;
    if (duplicates > 0 && this.ctx.counts) this.countDuplicates(known, inserted, meta, conflictingByDevice);
    if (inserted.length > 0 && this.listeners.size > 0) {
      const placed = options.placed === true;
      const stored: StoredPoint[] = inserted.map((p) => {
        // An insert that answers new row objects (PostgreSQL's fallback) gets them placed here.
        if (placed && 'plant_id' in p) return p as StoredPoint;
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
   * One batch's transaction: the raw insert, the duplicates' conflicts, the latest values and the rollups.
   * Runs on this store's connection, in process or on the SQLite writer thread (batch-writer-thread.ts).
   */
  async writeBatch(
    known: readonly PointToStore[],
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ): Promise<BatchWritten> {
    const { db, dialect } = this.ctx;
    let conflictingByDevice = new Map<number, number>();
    const rows = await db.transaction().execute(async (trx) => {
      const io = this.io(trx);
      const { rows, storedValues } = await io.insertRaw(known);
      if (rows.length < known.length)
        conflictingByDevice = await this.conflicts(trx, known, rows, meta, storedValues);
      if (rows.length === 0) return rows;
      // SQLite's one writer runs one batch at a time: only PostgreSQL locks (and needs the devices).
      if (dialect === 'postgres') await repo.lockRollups(trx, devicesOf(rows, meta));
      await this.maintain(io, rows, meta);
      return rows;
    });
    return { rows, conflictingByDevice };
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
    // A signal's points usually come oldest first already: a pass that finds them so spares the sort.
    for (const list of bySignal.values()) if (!inOrder(list)) list.sort(byTs);

    const latest = await io.readLatest([...bySignal.keys()]);
    const newest: repo.RawRow[] = [];
    const append = new Map<number, Point[]>();
    const merge = new Map<number, Point[]>();
    const recompute = new Map<number, Point[]>();
    for (const [signalId, list] of bySignal) {
      const last = list[list.length - 1]!;
      const before = latest.get(signalId);
      if (!before || last.ts > before.ts)
        newest.push({ signal_id: signalId, ts: last.ts, value: last.value });
      if (!before || list[0]!.ts > before.ts) append.set(signalId, list);
      else if (!meta.get(signalId)!.is_counter) merge.set(signalId, list);
      else recompute.set(signalId, list);
    }
    await io.upsertLatest(newest);
    await io.upsertDeviceLastData(newestPerDevice(newest, meta));
    if (append.size || merge.size) await this.append(io, append, merge, latest, meta);
    if (recompute.size) await this.recompute(io, recompute, meta);
  }

  /**
   * New points merged into the rollups without raw reads: each signal's aggregated in memory
   * (batch-rollups.ts), then one row per (signal, bucket) written with the `merge` upsert, which combines it
   * with a stored row of the same key in the statement — no stored bucket is read. `inOrder` signals' points
   * all come after their latest stored one (a counter's first step starts from that point's value);
   * `anyOrder` ones are gauges with points among stored ones: min, max, sum, count, first and last merge in
   * any order (only a counter's delta depends on the points around, see recompute).
   */
  private async append(
    io: StoreIo,
    inOrder: Map<number, Point[]>,
    anyOrder: Map<number, Point[]>,
    latest: Map<number, Point>,
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ) {
    const fresh: Record<RollupResolution, repo.RollupRow[]> = { '5m': [], '1h': [], '1d': [] };
    const dayOfZone = new Map<string, (ts: number) => number>();
    const add = (signalId: number, list: Point[], previous: Point | null) => {
      const m = meta.get(signalId)!;
      let dayOf = dayOfZone.get(m.time_zone);
      if (!dayOf) dayOfZone.set(m.time_zone, (dayOf = dayBucketer(m.time_zone)));
      const buckets = batchRollups(list, m.is_counter, previous, dayOf, m.counter_bound);
      for (const resolution of RESOLUTIONS)
        for (const [bucket, agg] of buckets[resolution])
          fresh[resolution].push({ signal_id: signalId, bucket, ...agg });
    };
    for (const [signalId, list] of inOrder) add(signalId, list, latest.get(signalId) ?? null);
    for (const [signalId, list] of anyOrder) add(signalId, list, null);
    for (const resolution of RESOLUTIONS) await io.upsertRollups(resolution, fresh[resolution], 'merge');
  }

  /**
   * Counters with points among or before stored ones: a counter's delta depends on the point before each
   * one, so the touched 5-minute buckets are rebuilt from raw (with the next stored bucket, whose first step
   * may have changed, and every bucket between). Hours and days then take the new points merged in (min,
   * max, sum, count, first, last) and the change of their 5-minute deltas, so that they are updated from the
   * rows they already hold instead of re-read whole from the level below. All signals of the batch at once:
   * a handful of statements per batch, not per signal (PostgreSQL pays a round trip each).
   */
  private async recompute(
    io: StoreIo,
    bySignal: Map<number, Point[]>,
    meta: ReadonlyMap<number, repo.SignalMeta>,
  ) {
    const touched: repo.Span[] = [];
    for (const [signalId, list] of bySignal) {
      // Sorted by ts: the first and last point give the first and last touched bucket.
      const first = floorBucket(list[0]!.ts, FIVE_MIN);
      const last = floorBucket(list[list.length - 1]!.ts, FIVE_MIN);
      touched.push({ signal_id: signalId, from: first, to: last });
    }
    const around = await io.rollupNeighbours('5m', touched);
    const spans: repo.Span[] = touched.map((t) => {
      // The next stored bucket's first step starts from a point that may have changed.
      const last = around.get(t.signal_id)?.next?.bucket ?? t.to;
      return { signal_id: t.signal_id, from: t.from, to: last + FIVE_MIN };
    });
    const raw = await io.readRawRanges(spans);
    const stored = await io.readRollupRanges('5m', spans);

    const fiveRows: repo.RollupRow[] = [];
    /** Per signal, how much each 5-minute bucket's delta and rejected delta changed. */
    const deltaChange = new Map<number, { delta: Map<number, number>; rejected: Map<number, number> }>();
    for (const { signal_id: signalId } of spans) {
      const before = around.get(signalId)?.previous;
      const previous = before ? { ts: before.last_ts, value: before.last } : null;
      const fives = aggregatePoints(
        raw.get(signalId) ?? [],
        bucketRun(FIVE_MIN),
        true,
        previous,
        meta.get(signalId)!.counter_bound,
      );
      const change = new Map<number, number>();
      // Every stored bucket of the span still has its points (raw is only added to here).
      const rejectedChange = new Map<number, number>();
      for (const row of stored.get(signalId) ?? []) {
        change.set(row.bucket, -(row.delta ?? 0));
        rejectedChange.set(row.bucket, -(row.rejected_delta ?? 0));
      }
      for (const [bucket, agg] of fives) {
        fiveRows.push({ signal_id: signalId, bucket, ...agg });
        change.set(bucket, (change.get(bucket) ?? 0) + agg.delta!);
        rejectedChange.set(bucket, (rejectedChange.get(bucket) ?? 0) + agg.rejected_delta!);
      }
      deltaChange.set(signalId, { delta: change, rejected: rejectedChange });
    }
    await io.upsertRollups('5m', fiveRows, 'replace');

    const dayOfZone = new Map<string, (ts: number) => number>();
    for (const resolution of ['1h', '1d'] as const) {
      const wanted: { signal_id: number; bucket: number }[] = [];
      const parts = new Map<
        number,
        { change: Map<number, number>; rejected: Map<number, number>; added: Map<number, Aggregate> }
      >();
      for (const [signalId, list] of bySignal) {
        const zone = meta.get(signalId)!.time_zone;
        let dayOf = dayOfZone.get(zone);
        if (!dayOf) dayOfZone.set(zone, (dayOf = dayBucketer(zone)));
        const bucketOf = bucketerFor(resolution, dayOf);
        const change = new Map<number, number>();
        const rejected = new Map<number, number>();
        const fiveChange = deltaChange.get(signalId)!;
        // A 5-minute bucket lies within one hour and one local day (zone offsets are whole quarter hours).
        for (const [five, d] of fiveChange.delta) {
          const bucket = bucketOf(five);
          change.set(bucket, (change.get(bucket) ?? 0) + d);
        }
        for (const [five, d] of fiveChange.rejected) {
          const bucket = bucketOf(five);
          rejected.set(bucket, (rejected.get(bucket) ?? 0) + d);
        }
        const added = aggregatePoints(list, bucketOf, false);
        for (const bucket of new Set([...change.keys(), ...added.keys()]))
          wanted.push({ signal_id: signalId, bucket });
        parts.set(signalId, { change, rejected, added });
      }
      const old = new Map(
        (await io.readRollupKeys(resolution, wanted)).map((r) => [`${r.signal_id}:${r.bucket}`, r]),
      );
      const rows: repo.RollupRow[] = [];
      for (const { signal_id: signalId, bucket } of wanted) {
        const { change, rejected, added } = parts.get(signalId)!;
        const before = old.get(`${signalId}:${bucket}`);
        const points = added.get(bucket);
        const merged =
          before && points
            ? mergeAggregates(aggregateOf(before), points)
            : before
              ? aggregateOf(before)
              : points;
        if (!merged) continue;
        rows.push({
          signal_id: signalId,
          bucket,
          ...merged,
          delta: (before?.delta ?? 0) + (change.get(bucket) ?? 0),
          rejected_delta: (before?.rejected_delta ?? 0) + (rejected.get(bucket) ?? 0),
        });
      }
      await io.upsertRollups(resolution, rows, 'replace');
    }
  }
}

/** Whether the points are oldest first (equal timestamps allowed). */
function inOrder(points: readonly Point[]): boolean {
  for (let i = 1; i < points.length; i++) if (points[i]!.ts < points[i - 1]!.ts) return false;
  return true;
}

/** The devices of these rows, each once. */
function devicesOf(rows: readonly repo.RawRow[], meta: ReadonlyMap<number, repo.SignalMeta>): number[] {
  const devices = new Set<number>();
  let signal = -1;
  for (const r of rows) {
    // A run of rows of one signal (a device's history) is looked up once.
    if (r.signal_id === signal) continue;
    signal = r.signal_id;
    devices.add(meta.get(signal)!.device_id);
  }
  return [...devices];
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
