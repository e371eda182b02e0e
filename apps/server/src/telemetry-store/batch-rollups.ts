/**
 * A batch's rollup contributions, aggregated in memory before anything is written: one row per (signal,
 * bucket) at each resolution, whatever the number of points. The points are aggregated once, into 5-minute
 * buckets; hours and local days are rolled up from those (a 5-minute bucket never straddles an hour, nor a
 * local day: every zone offset is a multiple of 15 minutes). batch-rollups.test.ts proves the result equals
 * merging the points into the buckets one by one.
 */
import { FIXED_BUCKET_MS, type RollupResolution } from '@solar/shared';
import {
  aggregatePoints,
  rollUp,
  UNBOUNDED,
  type Aggregate,
  type CounterBound,
  type Point,
} from './aggregate';
import { bucketRun, dayBucket, floorBucket } from './buckets';

const FIVE_MIN = FIXED_BUCKET_MS['5m'];
const HOUR = FIXED_BUCKET_MS['1h'];
/** Every zone offset in the tz database is a multiple of 15 minutes: a local day never splits such a slot. */
const SLOT = 15 * 60_000;

/** dayBucket for many instants of one zone: one Intl call per 15-minute slot instead of one per instant. */
export function dayBucketer(timeZone: string): (ts: number) => number {
  const memo = new Map<number, number>();
  return (ts) => {
    const slot = floorBucket(ts, SLOT);
    let day = memo.get(slot);
    if (day === undefined) {
      day = dayBucket(slot, timeZone);
      memo.set(slot, day);
    }
    return day;
  };
}

/** The bucket of an instant at a resolution (local days through `dayOf`). */
export function bucketerFor(resolution: RollupResolution, dayOf: (ts: number) => number) {
  if (resolution === '1d') return dayOf;
  const width = FIXED_BUCKET_MS[resolution];
  return (ts: number) => floorBucket(ts, width);
}

/**
 * One signal's new points (sorted by ts, none at or before its stored latest point) as buckets at each
 * resolution. For a counter, `previous` is the stored latest point, so the step into the first new bucket
 * is counted in it, and `bound` judges each step (aggregate.ts counterStep).
 */
export function batchRollups(
  points: readonly Point[],
  isCounter: boolean,
  previous: Point | number | null,
  dayOf: (ts: number) => number,
  bound: CounterBound = UNBOUNDED,
): Record<RollupResolution, Map<number, Aggregate>> {
  const fives = aggregatePoints(points, bucketRun(FIVE_MIN), isCounter, previous, bound);
  const rows = [...fives].map(([bucket, agg]) => ({ bucket, ...agg }));
  return {
    '5m': fives,
    '1h': rollUp(rows, (bucket) => floorBucket(bucket, HOUR)),
    '1d': rollUp(rows, dayOf),
  };
}
