import { describe, expect, it } from 'vitest';
import { aggregateOf, aggregatePoints, counterDelta, mergeAggregates, rollUp } from './aggregate';

const by10 = (ts: number) => ts - (ts % 10);

describe('rollup arithmetic', () => {
  it('counts a counter increase, a reset as the new value, and nothing without a previous reading', () => {
    expect(counterDelta(null, 5)).toBe(0);
    expect(counterDelta(10, 12.5)).toBe(2.5);
    expect(counterDelta(10, 10)).toBe(0);
    expect(counterDelta(1000, 3)).toBe(3);
  });

  it('aggregates points per bucket with first/last and min/max/sum/count', () => {
    const b = aggregatePoints(
      [
        { ts: 1, value: 4 },
        { ts: 5, value: -2 },
        { ts: 9, value: 7 },
        { ts: 12, value: 1 },
      ],
      by10,
      false,
    );
    expect(b.get(0)).toEqual({
      min: -2,
      max: 7,
      sum: 9,
      count: 3,
      first: 4,
      first_ts: 1,
      last: 7,
      last_ts: 9,
      delta: null,
    });
    expect(b.get(10)).toMatchObject({ count: 1, first: 1, last: 1 });
  });

  it('puts the step into a bucket, from the last point before it, in that bucket; survives a reset and a gap', () => {
    const b = aggregatePoints(
      [
        { ts: 3, value: 105 },
        { ts: 8, value: 110 },
        // reset to 2, then a gap of two buckets
        { ts: 14, value: 2 },
        { ts: 45, value: 9 },
      ],
      by10,
      true,
      100,
    );
    expect(b.get(0)!.delta).toBe(10);
    expect(b.get(10)!.delta).toBe(2);
    expect(b.get(40)!.delta).toBe(7);
    expect([...b.values()].reduce((s, a) => s + a.delta!, 0)).toBe(19);
  });

  it('merges associatively and rolls fine buckets into coarse ones', () => {
    const pts = Array.from({ length: 40 }, (_, i) => ({ ts: i * 3, value: Math.sin(i) * 10 + i }));
    const whole = aggregatePoints(pts, () => 0, true, 0).get(0)!;
    const fine = aggregatePoints(pts, by10, true, 0);
    const rolled = rollUp([...fine].map(([bucket, a]) => ({ bucket, ...a })).reverse(), () => 0).get(0)!;
    expect(rolled.count).toBe(whole.count);
    expect(rolled.sum).toBeCloseTo(whole.sum, 9);
    expect(rolled.delta).toBeCloseTo(whole.delta!, 9);
    expect({ ...rolled, sum: 0, delta: 0 }).toEqual({ ...whole, sum: 0, delta: 0 });
    const [a, b] = [fine.get(0)!, fine.get(10)!];
    expect(mergeAggregates(a, b)).toEqual(mergeAggregates(b, a));
    expect(aggregateOf({ ...a, extra: 1 } as typeof a)).toEqual(a);
  });
});
