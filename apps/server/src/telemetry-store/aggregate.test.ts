import { describe, expect, it } from 'vitest';
import {
  aggregateOf,
  aggregatePoints,
  COUNTER_RATE_MARGIN,
  counterBoundOf,
  counterDelta,
  counterStep,
  mergeAggregates,
  rollUp,
  UNBOUNDED,
} from './aggregate';

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
      rejected_delta: null,
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
    expect(rolled.rejected_delta).toBe(0);
    const [a, b] = [fine.get(0)!, fine.get(10)!];
    expect(mergeAggregates(a, b)).toEqual(mergeAggregates(b, a));
    expect(aggregateOf({ ...a, extra: 1 } as typeof a)).toEqual(a);
  });

  describe('counter steps judged against what the device could produce', () => {
    // A 1.2 MW plant's meter counting kWh: 1.2 × 1200 kW = 1440 kWh an hour, plus 1 kWh of resolution.
    const meter = counterBoundOf('kWh', null, 1200);
    const at = (s: number, value: number) => ({ ts: s * 1000, value });

    it('derives the bound from the rating, else the plant AC capacity, in the counter unit', () => {
      expect(meter).toEqual({ maxPerHour: 1200 * COUNTER_RATE_MARGIN, resolution: 1 });
      expect(counterBoundOf('Wh', 50, 1200)).toEqual({ maxPerHour: 60_000, resolution: 1000 });
      expect(counterBoundOf('MWh', null, 1000)).toEqual({ maxPerHour: 1.2, resolution: 0.001 });
      expect(counterBoundOf(null, 10, null).maxPerHour).toBeCloseTo(12, 9);
      expect(counterBoundOf('h', 10, 1000)).toBe(UNBOUNDED);
      expect(counterBoundOf('kWh', null, null)).toBe(UNBOUNDED);
    });

    it('counts a normal step', () => {
      // 5 minutes at 1 MW: 83.3 kWh, within 1440 × 5/60 + 1 = 121 kWh.
      expect(counterStep(at(0, 1000), at(300, 1083.3), meter).delta).toBeCloseTo(83.3, 9);
      expect(counterStep(at(0, 1000), at(300, 1083.3), meter).rejected).toBe(0);
      expect(counterStep(null, at(300, 1083.3), meter)).toEqual({ delta: 0, rejected: 0 });
    });

    it('rejects a jump: 80 kWh in 41 s on a 1.2 MW plant (7 MW) is not energy', () => {
      // Allowed: 1440 × 41 / 3600 + 1 = 17.4 kWh.
      expect(counterStep(at(0, 5000), at(41, 5080), meter)).toEqual({ delta: 0, rejected: 80 });
      // The same step unbounded (no rating known) is believed, as before.
      expect(counterStep(at(0, 5000), at(41, 5080))).toEqual({ delta: 80, rejected: 0 });
    });

    it('counts a reset to near zero only when the new value is plausible', () => {
      expect(counterStep(at(0, 5000), at(60, 3), meter)).toEqual({ delta: 3, rejected: 0 });
      // 400 kWh a minute after a reset is 24 MW: a drop the device could not have made since.
      expect(counterStep(at(0, 5000), at(60, 400), meter)).toEqual({ delta: 0, rejected: 0 });
      expect(counterDelta(1000, 3)).toBe(3);
    });

    it('counts the wrapped difference of an acc32 register', () => {
      const wh = counterBoundOf('Wh', 100, null); // 120 kWh/h = 120,000 Wh/h
      const top = 2 ** 32;
      // 60 s: 500 Wh before the wrap, 700 after: 1200 Wh, within 2000 + 1000 Wh.
      expect(counterStep(at(0, top - 500), at(60, 700), wh)).toEqual({ delta: 1200, rejected: 0 });
      // A counter in kWh fed by a Wh acc32 register (scale 0.001).
      expect(
        counterStep(at(0, top / 1000 - 0.5), at(60, 0.7), counterBoundOf('kWh', 100, null)).delta,
      ).toBeCloseTo(1.2, 9);
      expect(counterDelta(top - 500, 700)).toBe(1200);
    });

    it('carries the rejected energy in the buckets and through rollups', () => {
      const b = aggregatePoints(
        [at(10, 5000.5), at(20, 5001), at(61, 5081), at(100, 5081.5)],
        (ts) => ts - (ts % 60_000),
        true,
        at(0, 5000),
        meter,
      );
      expect(b.get(0)).toMatchObject({ delta: 1, rejected_delta: 0 });
      expect(b.get(60_000)).toMatchObject({ delta: 0.5, rejected_delta: 80 });
      const day = rollUp(
        [...b].map(([bucket, a]) => ({ bucket, ...a })),
        () => 0,
      ).get(0)!;
      expect(day.delta).toBe(1.5);
      expect(day.rejected_delta).toBe(80);
    });
  });
});
