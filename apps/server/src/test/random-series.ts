/** Seeded random telemetry for property tests of the store. */
import type { Point } from '../telemetry-store/aggregate';

/** A small seeded generator (mulberry32): a failing case names its seed and replays. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Points of one signal over up to two days, in time order, at uneven steps. Values are quarters, so every
 * sum and difference is exact in floating point and "the same rows" can mean bit for bit. A counter rises
 * and now and then resets to a small value.
 */
export function randomSeries(
  random: () => number,
  counter: boolean,
  startMs: number,
  maxPoints = 400,
): Point[] {
  const n = 1 + Math.floor(random() * maxPoints);
  const points: Point[] = [];
  let ts = startMs + Math.floor(random() * 3_600_000);
  let value = Math.floor(random() * 4000) / 4;
  for (let i = 0; i < n; i++) {
    points.push({ ts, value });
    ts += 1 + Math.floor(random() * (random() < 0.1 ? 3 * 3_600_000 : 400_000));
    if (!counter) value = Math.floor(random() * 400_000) / 4 - 1000;
    else if (random() < 0.05) value = Math.floor(random() * 40) / 4;
    else value += Math.floor(random() * 400) / 4;
  }
  return points;
}
