/**
 * The writes and reads of one stored batch (raw insert, latest values, rollup keys, ranges and upserts), behind one
 * interface with two implementations: Kysely multi-row statements (PostgreSQL, and SQLite without its own
 * handle), and prepared single-row better-sqlite3 statements (sqlite-store-io.ts). The SQLite one is the
 * ingest hot path: a prepared statement runs in about a microsecond, while a 10,000-row VALUES statement
 * is parsed and planned anew on every batch (the profile in docs/benchmarks.md).
 */
import type { RollupResolution } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import type { Point } from './aggregate';
import * as repo from './telemetry-store.repository';

export interface StoreIo {
  /**
   * Inserts the points that are new (ON CONFLICT DO NOTHING); answers those, in the given order, and where
   * known without another read the values the others repeat.
   */
  insertRaw(points: readonly repo.RawRow[]): Promise<repo.RawInsert>;
  readLatest(ids: readonly number[]): Promise<Map<number, Point>>;
  upsertLatest(rows: readonly repo.RawRow[]): Promise<void>;
  upsertDeviceLastData(rows: readonly { device_id: number; ts: number }[]): Promise<void>;
  readRollupKeys(
    resolution: RollupResolution,
    keys: readonly { signal_id: number; bucket: number }[],
  ): Promise<repo.RollupRow[]>;
  /** Rollup rows written; a stored row with the same key is replaced, or merged with (repo.RollupConflict). */
  upsertRollups(
    resolution: RollupResolution,
    rows: readonly repo.RollupRow[],
    conflict: repo.RollupConflict,
  ): Promise<void>;
  /** Raw points of each span (timestamps [from, to)), oldest first, by signal. */
  readRawRanges(spans: readonly repo.Span[]): Promise<Map<number, Point[]>>;
  /** Rollup rows of each span (buckets [from, to)), oldest first, by signal. */
  readRollupRanges(
    resolution: RollupResolution,
    spans: readonly repo.Span[],
  ): Promise<Map<number, repo.RollupRow[]>>;
  /** For each span, the rollup row just before bucket `from` and the first one after bucket `to`. */
  rollupNeighbours(
    resolution: RollupResolution,
    spans: readonly repo.Span[],
  ): Promise<Map<number, { previous?: repo.RollupRow; next?: repo.RollupRow }>>;
}

/** StoreIo over Kysely (inside the batch's transaction `db`). */
export function kyselyStoreIo(db: Db, dialect: Dialect): StoreIo {
  return {
    insertRaw: (points) => repo.insertRaw(db, dialect, points),
    readLatest: (ids) => repo.readLatest(db, dialect, ids),
    upsertLatest: (rows) => repo.upsertLatest(db, dialect, rows),
    upsertDeviceLastData: (rows) => repo.upsertDeviceLastData(db, rows),
    readRollupKeys: (resolution, keys) => repo.readRollupKeys(db, dialect, resolution, keys),
    upsertRollups: (resolution, rows, conflict) =>
      repo.upsertRollups(db, dialect, resolution, rows, conflict),
    readRawRanges: (spans) => repo.readRawRanges(db, dialect, spans),
    readRollupRanges: (resolution, spans) => repo.readRollupRanges(db, dialect, resolution, spans),
    rollupNeighbours: (resolution, spans) => repo.rollupNeighboursOf(db, dialect, resolution, spans),
  };
}
