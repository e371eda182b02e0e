import { describe, expect, it } from 'vitest';
import { counterDelta, mergeAggregates, type Aggregate, type Point } from './aggregate';
import { randomSeries, seeded } from '../test/random-series';
import { batchRollups, bucketerFor, dayBucketer } from './batch-rollups';

/** The reference: each point merged alone into its bucket, as a one-point aggregate. */
function pointByPoint(
  points: readonly Point[],
  counter: boolean,
  previous: number | null,
  bucketOf: (ts: number) => number,
) {
  const out = new Map<number, Aggregate>();
  let prev = previous;
  for (const { ts, value } of points) {
    const one: Aggregate = {
      min: value,
      max: value,
      sum: value,
      count: 1,
      first: value,
      first_ts: ts,
      last: value,
      last_ts: ts,
      delta: counter ? counterDelta(prev, value) : null,
      rejected_delta: counter ? 0 : null,
    };
    prev = value;
    const key = bucketOf(ts);
    const existing = out.get(key);
    out.set(key, existing ? mergeAggregates(existing, one) : one);
  }
  return out;
}

const sorted = (m: Map<number, Aggregate>) => [...m].sort((a, b) => a[0] - b[0]);

describe('batchRollups (in-memory aggregation of a batch)', () => {
  it('gives exactly the buckets of merging the points one by one, at 5m, 1h and local days', () => {
    // Istanbul (+3), Kathmandu (+5:45: days that do not start on a whole hour), New York (DST).
    const zones = ['Europe/Istanbul', 'Asia/Kathmandu', 'America/New_York'];
    // Across the New York DST change of 2026-11-01.
    const start = Date.UTC(2026, 9, 31, 0, 0, 0);
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const zone = zones[seed % zones.length]!;
      const counter = seed % 2 === 0;
      const points = randomSeries(random, counter, start);
      const previous = counter && random() < 0.7 ? Math.floor(random() * 8000) / 4 : null;
      const dayOf = dayBucketer(zone);
      const batch = batchRollups(points, counter, previous, dayOf);
      for (const resolution of ['5m', '1h', '1d'] as const) {
        const expected = pointByPoint(points, counter, previous, bucketerFor(resolution, dayOf));
        expect(sorted(batch[resolution]), `seed ${seed} ${zone} ${resolution}`).toEqual(sorted(expected));
      }
    }
  });
});
