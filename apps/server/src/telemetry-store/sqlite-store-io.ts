/**
 * StoreIo on SQLite through better-sqlite3 prepared statements, one row per run: the same statements the
 * bare-insert reference of bench:ingest runs, so the raw insert costs what the storage costs. A raw row's
 * `changes` says whether it was new, so no RETURNING is needed. Statements are prepared on first use
 * (after the migrations) and kept. Call only inside a Kysely transaction on the same database (see
 * DatabaseHandle.sqlite): the statements then run in that transaction.
 */
import type SQLite from 'better-sqlite3';
import type { RollupResolution } from '@solar/shared';
import type { Point } from './aggregate';
import type { StoreIo } from './store-io';
import {
  ROLLUP_COLUMN_LIST,
  ROLLUP_TABLE,
  rollupConflictSet,
  type RollupConflict,
  type RawInsert,
  type RawRow,
  type RollupRow,
  type Span,
} from './telemetry-store.repository';

export class SqliteStoreIo implements StoreIo {
  private statements?: ReturnType<typeof prepare>;

  constructor(private readonly sqlite: SQLite.Database) {}

  private get s() {
    return (this.statements ??= prepare(this.sqlite));
  }

  insertRaw(points: readonly RawRow[]): Promise<RawInsert> {
    const insert = this.s.insertRaw;
    const inserted: RawRow[] = [];
    for (const p of points) if (insert.run(p.signal_id, p.ts, p.value).changes === 1) inserted.push(p);
    return Promise.resolve({ rows: inserted });
  }

  readLatest(ids: readonly number[]): Promise<Map<number, Point>> {
    const out = new Map<number, Point>();
    for (const id of ids) {
      const row = this.s.readLatest.get(id) as Point | undefined;
      if (row) out.set(id, row);
    }
    return Promise.resolve(out);
  }

  upsertLatest(rows: readonly RawRow[]): Promise<void> {
    for (const r of rows) this.s.upsertLatest.run(r.signal_id, r.ts, r.value);
    return Promise.resolve();
  }

  upsertDeviceLastData(rows: readonly { device_id: number; ts: number }[]): Promise<void> {
    for (const r of rows) this.s.upsertDeviceLastData.run(r.device_id, r.ts);
    return Promise.resolve();
  }

  readRollupKeys(
    resolution: RollupResolution,
    keys: readonly { signal_id: number; bucket: number }[],
  ): Promise<RollupRow[]> {
    const read = this.s.readRollup[resolution];
    const out: RollupRow[] = [];
    for (const k of keys) {
      const row = read.get(k.signal_id, k.bucket) as RollupRow | undefined;
      if (row) out.push(row);
    }
    return Promise.resolve(out);
  }

  upsertRollups(
    resolution: RollupResolution,
    rows: readonly RollupRow[],
    conflict: RollupConflict,
  ): Promise<void> {
    const upsert = this.s.upsertRollup[conflict][resolution];
    for (const r of rows)
      upsert.run(
        r.signal_id,
        r.bucket,
        r.min,
        r.max,
        r.sum,
        r.count,
        r.first,
        r.first_ts,
        r.last,
        r.last_ts,
        r.delta,
        r.rejected_delta,
      );
    return Promise.resolve();
  }

  readRawRanges(spans: readonly Span[]): Promise<Map<number, Point[]>> {
    const out = new Map<number, Point[]>();
    for (const s of spans)
      out.set(s.signal_id, this.s.readRawRange.all(s.signal_id, s.from, s.to) as Point[]);
    return Promise.resolve(out);
  }

  readRollupRanges(resolution: RollupResolution, spans: readonly Span[]): Promise<Map<number, RollupRow[]>> {
    const read = this.s.readRollupRange[resolution];
    const out = new Map<number, RollupRow[]>();
    for (const s of spans) out.set(s.signal_id, read.all(s.signal_id, s.from, s.to) as RollupRow[]);
    return Promise.resolve(out);
  }

  rollupNeighbours(
    resolution: RollupResolution,
    spans: readonly Span[],
  ): Promise<Map<number, { previous?: RollupRow; next?: RollupRow }>> {
    const out = new Map<number, { previous?: RollupRow; next?: RollupRow }>();
    for (const s of spans)
      out.set(s.signal_id, {
        previous: this.s.rollupBefore[resolution].get(s.signal_id, s.from) as RollupRow | undefined,
        next: this.s.rollupAfter[resolution].get(s.signal_id, s.to) as RollupRow | undefined,
      });
    return Promise.resolve(out);
  }
}

function prepare(sqlite: SQLite.Database) {
  const perResolution = <T>(make: (table: string) => T): Record<RollupResolution, T> => ({
    '5m': make(ROLLUP_TABLE['5m']),
    '1h': make(ROLLUP_TABLE['1h']),
    '1d': make(ROLLUP_TABLE['1d']),
  });
  return {
    insertRaw: sqlite.prepare(
      'insert into telemetry_raw (signal_id, ts, value) values (?, ?, ?) on conflict do nothing',
    ),
    readLatest: sqlite.prepare('select ts, value from telemetry_latest where signal_id = ?'),
    upsertLatest: sqlite.prepare(
      'insert into telemetry_latest (signal_id, ts, value) values (?, ?, ?) on conflict (signal_id) do update set ts = excluded.ts, value = excluded.value where excluded.ts > telemetry_latest.ts',
    ),
    upsertDeviceLastData: sqlite.prepare(
      'insert into device_last_data (device_id, ts) values (?, ?) on conflict (device_id) do update set ts = excluded.ts where excluded.ts > device_last_data.ts',
    ),
    readRollup: perResolution((table) =>
      sqlite.prepare(`select ${ROLLUP_COLUMN_LIST} from ${table} where signal_id = ? and bucket = ?`),
    ),
    readRawRange: sqlite.prepare(
      'select ts, value from telemetry_raw where signal_id = ? and ts >= ? and ts < ? order by ts',
    ),
    readRollupRange: perResolution((table) =>
      sqlite.prepare(
        `select ${ROLLUP_COLUMN_LIST} from ${table} where signal_id = ? and bucket >= ? and bucket < ? order by bucket`,
      ),
    ),
    rollupBefore: perResolution((table) =>
      sqlite.prepare(
        `select ${ROLLUP_COLUMN_LIST} from ${table} where signal_id = ? and bucket < ? order by bucket desc limit 1`,
      ),
    ),
    rollupAfter: perResolution((table) =>
      sqlite.prepare(
        `select ${ROLLUP_COLUMN_LIST} from ${table} where signal_id = ? and bucket > ? order by bucket asc limit 1`,
      ),
    ),
    upsertRollup: {
      replace: perResolution((table) => upsertRollup(sqlite, table, 'replace')),
      merge: perResolution((table) => upsertRollup(sqlite, table, 'merge')),
    },
  };
}

function upsertRollup(sqlite: SQLite.Database, table: string, conflict: RollupConflict) {
  return sqlite.prepare(
    `insert into ${table} (${ROLLUP_COLUMN_LIST}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (signal_id, bucket) do update set ${rollupConflictSet('sqlite', table, conflict)}`,
  );
}
