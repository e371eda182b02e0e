import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import { mergeAggregates, rollUp, type Aggregate, type Point } from './aggregate';
import { batchRollups, dayBucketer } from './batch-rollups';
import { floorBucket } from './buckets';
import { kyselyStoreIo } from './store-io';
import * as repo from './telemetry-store.repository';

const FIVE_MIN = FIXED_BUCKET_MS['5m'];
const RESOLUTIONS = ['5m', '1h', '1d'] as const;

/** What a rollup-only write did: points whose 5-minute bucket was new, and those whose bucket was stored. */
export interface RollupOnlyResult {
  inserted: number;
  existing: number;
}

/**
 * History older than the raw retention, written as rollups only (raw points that old would be deleted by
 * the next retention run, and ingest refuses them). A 5-minute bucket is the unit of idempotency: a bucket
 * already stored for the signal is left as it is and its points count as existing, so a second import of
 * the same file changes nothing; points of new buckets are aggregated (counters' deltas from the file's
 * point before each run, as the store's append does) and merged into the 5-minute, hourly and daily rows.
 * `points` of one signal each, sorted by time.
 */
export async function storeRollupsOnly(
  db: Db,
  dialect: Dialect,
  bySignal: ReadonlyMap<number, readonly Point[]>,
): Promise<RollupOnlyResult> {
  const ids = [...bySignal.keys()];
  if (!ids.length) return { inserted: 0, existing: 0 };
  const meta = await repo.loadSignalMeta(db, dialect, ids);
  let inserted = 0;
  let existing = 0;
  await db.transaction().execute(async (trx) => {
    const io = kyselyStoreIo(trx, dialect);
    const fresh: Record<RollupResolution, repo.RollupRow[]> = { '5m': [], '1h': [], '1d': [] };
    for (const [signalId, points] of bySignal) {
      const m = meta.get(signalId);
      if (!m || !points.length) continue;
      const buckets = [...new Set(points.map((p) => floorBucket(p.ts, FIVE_MIN)))];
      const stored = new Set(
        (
          await io.readRollupKeys(
            '5m',
            buckets.map((bucket) => ({ signal_id: signalId, bucket })),
          )
        ).map((r) => Number(r.bucket)),
      );
      const dayOf = dayBucketer(m.time_zone);
      const acc: Record<RollupResolution, Map<number, Aggregate>> = {
        '5m': new Map(),
        '1h': new Map(),
        '1d': new Map(),
      };
      let run: Point[] = [];
      let runPrevious: number | null = null;
      let previous: number | null = null;
      const flush = () => {
        if (!run.length) return;
        const made = batchRollups(run, m.is_counter, runPrevious, dayOf);
        for (const resolution of RESOLUTIONS)
          for (const [bucket, agg] of made[resolution]) {
            const before = acc[resolution].get(bucket);
            acc[resolution].set(bucket, before ? mergeAggregates(before, agg) : agg);
          }
        inserted += run.length;
        run = [];
      };
      for (const p of points) {
        if (stored.has(floorBucket(p.ts, FIVE_MIN))) {
          flush();
          existing++;
        } else {
          if (!run.length) runPrevious = previous;
          run.push(p);
        }
        previous = p.value;
      }
      flush();
      for (const resolution of RESOLUTIONS)
        for (const [bucket, agg] of acc[resolution])
          fresh[resolution].push({ signal_id: signalId, bucket, ...agg });
    }
    for (const resolution of RESOLUTIONS) await io.upsertRollups(resolution, fresh[resolution], 'merge');
  });
  return { inserted, existing };
}

/** One hour of a signal written at hourly resolution: the hour's mean, or a counter's reading at its end. */
export interface HourValue {
  /** The hour's start (epoch ms, a whole hour). */
  hourMs: number;
  value: number;
}

/** One signal's hours, oldest first; a counter's reading before the first hour, when known. */
export interface HourSeries {
  hours: readonly HourValue[];
  /** Counters: the reading the first hour's delta is counted from; absent, that hour counts none. */
  previous?: number;
}

/**
 * A history that exists only at hourly resolution (the demo's coarse model, docs/simulator.md), written as
 * hourly and daily rollups: no raw points and no 5-minute buckets, so it costs a twelfth of the rows of a
 * rollup-only history of 5-minute readings. Each hour is one sample (count 1) holding the hour's mean; a
 * counter's hour holds its reading at the hour's end and, as delta, the increase from the reading before.
 * The days are rolled up from the hours on the signal's local day; both levels are replaced, so the caller
 * writes whole local days. Counts the hours written. The KPI engine computes a day that has hourly buckets
 * but no 5-minute ones from the hours (kpi plant-day.service).
 */
export async function storeHourlyRollups(
  db: Db,
  dialect: Dialect,
  bySignal: ReadonlyMap<number, HourSeries>,
): Promise<number> {
  const ids = [...bySignal.keys()];
  if (!ids.length) return 0;
  const meta = await repo.loadSignalMeta(db, dialect, ids);
  const hours: repo.RollupRow[] = [];
  const days: repo.RollupRow[] = [];
  for (const [signalId, series] of bySignal) {
    const m = meta.get(signalId);
    if (!m || !series.hours.length) continue;
    const rows: ({ bucket: number } & Aggregate)[] = [];
    let previous = series.previous;
    for (const { hourMs, value } of series.hours) {
      const delta = m.is_counter ? (previous === undefined ? 0 : Math.max(value - previous, 0)) : null;
      if (m.is_counter) previous = value;
      rows.push({
        bucket: hourMs,
        min: value,
        max: value,
        sum: value,
        count: 1,
        first: value,
        first_ts: hourMs,
        last: value,
        last_ts: hourMs,
        delta,
        rejected_delta: m.is_counter ? 0 : null,
      });
    }
    for (const row of rows) hours.push({ signal_id: signalId, ...row });
    for (const [bucket, agg] of rollUp(rows, dayBucketer(m.time_zone)))
      days.push({ signal_id: signalId, bucket, ...agg });
  }
  await db.transaction().execute(async (trx) => {
    const io = kyselyStoreIo(trx, dialect);
    await io.upsertRollups('1h', hours, 'replace');
    await io.upsertRollups('1d', days, 'replace');
  });
  return hours.length;
}
