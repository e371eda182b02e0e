import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import { mergeAggregates, type Aggregate, type Point } from './aggregate';
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
