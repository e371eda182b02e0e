/**
 * Rollup arithmetic: what one bucket of a signal keeps (min, max, sum, count, first, last and, for counter
 * signals, the energy delta) and how buckets are built from points and merged into coarser buckets.
 */
export interface Aggregate {
  min: number;
  max: number;
  sum: number;
  count: number;
  first: number;
  first_ts: number;
  last: number;
  last_ts: number;
  /** Counter signals: the increase over the bucket (see counterDelta); null for other signals. */
  delta: number | null;
}

export interface Point {
  ts: number;
  value: number;
}

/**
 * The increase of a cumulative counter (e.g. total_energy in kWh) from `previous` to `value`. A drop is read
 * as a counter reset (device replaced, register rolled over): the new value is what accrued since the
 * reset. Without a previous reading nothing is known to have accrued.
 */
export function counterDelta(previous: number | null, value: number): number {
  if (previous === null) return 0;
  return value >= previous ? value - previous : value;
}

/**
 * Buckets of the points (sorted by ts), keyed by `bucketOf(ts)`. For a counter, `previous` is the value of
 * the last point before the first one given, so the step into the first bucket is counted in it.
 */
export function aggregatePoints(
  points: readonly Point[],
  bucketOf: (ts: number) => number,
  isCounter: boolean,
  previous: number | null = null,
): Map<number, Aggregate> {
  const buckets = new Map<number, Aggregate>();
  let prev = previous;
  let current: Aggregate | undefined;
  let currentKey = Number.NaN;
  for (const { ts, value } of points) {
    const key = bucketOf(ts);
    const delta = isCounter ? counterDelta(prev, value) : null;
    prev = value;
    if (key !== currentKey) {
      current = buckets.get(key);
      currentKey = key;
    }
    if (!current) {
      current = {
        min: value,
        max: value,
        sum: value,
        count: 1,
        first: value,
        first_ts: ts,
        last: value,
        last_ts: ts,
        delta,
      };
      buckets.set(key, current);
      continue;
    }
    if (value < current.min) current.min = value;
    if (value > current.max) current.max = value;
    current.sum += value;
    current.count += 1;
    if (ts < current.first_ts) {
      current.first = value;
      current.first_ts = ts;
    }
    if (ts >= current.last_ts) {
      current.last = value;
      current.last_ts = ts;
    }
    if (delta !== null) current.delta = (current.delta ?? 0) + delta;
  }
  return buckets;
}

/** Two aggregates of one signal as one (associative; order of arguments does not matter). */
export function mergeAggregates(a: Aggregate, b: Aggregate): Aggregate {
  const early = a.first_ts <= b.first_ts ? a : b;
  const lastOf = a.last_ts >= b.last_ts ? a : b;
  return {
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    sum: a.sum + b.sum,
    count: a.count + b.count,
    first: early.first,
    first_ts: early.first_ts,
    last: lastOf.last,
    last_ts: lastOf.last_ts,
    delta: a.delta === null && b.delta === null ? null : (a.delta ?? 0) + (b.delta ?? 0),
  };
}

/** Finer buckets (any order) grouped into coarser ones keyed by `bucketOf(fine bucket start)`. */
export function rollUp(
  rows: Iterable<{ bucket: number } & Aggregate>,
  bucketOf: (bucket: number) => number,
): Map<number, Aggregate> {
  const out = new Map<number, Aggregate>();
  for (const row of rows) {
    const key = bucketOf(row.bucket);
    const agg = aggregateOf(row);
    const existing = out.get(key);
    out.set(key, existing ? mergeAggregates(existing, agg) : agg);
  }
  return out;
}

/** Just the aggregate columns of a row. */
export function aggregateOf(row: Aggregate): Aggregate {
  return {
    min: row.min,
    max: row.max,
    sum: row.sum,
    count: row.count,
    first: row.first,
    first_ts: row.first_ts,
    last: row.last,
    last_ts: row.last_ts,
    delta: row.delta,
  };
}
