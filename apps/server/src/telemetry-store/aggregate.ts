/**
 * Rollup arithmetic: what one bucket of a signal keeps (min, max, sum, count, first, last and, for counter
 * signals, the energy delta and the rejected delta) and how buckets are built from points and merged into
 * coarser buckets.
 */
import { kwhPerUnit } from './energy-units';

export interface Aggregate {
  min: number;
  max: number;
  sum: number;
  count: number;
  first: number;
  first_ts: number;
  last: number;
  last_ts: number;
  /** Counter signals: the believed increase over the bucket (see counterStep); null for other signals. */
  delta: number | null;
  /**
   * Counter signals: the increase the counter claimed in the bucket that no device could have produced
   * (a jump, an implausible reset), so it is not in `delta`; null for other signals.
   */
  rejected_delta: number | null;
}

export interface Point {
  ts: number;
  value: number;
}

/**
 * How far a cumulative counter can believably advance, in its own unit: `maxPerHour` × elapsed hours +
 * `resolution`. `maxPerHour` null means no bound is known (every increase is believed).
 */
export interface CounterBound {
  maxPerHour: number | null;
  resolution: number;
}

/** No rating known: every increase is believed, as before bounds existed. */
export const UNBOUNDED: CounterBound = { maxPerHour: null, resolution: 0 };

/**
 * The margin over the device's rating a counter step may show before it is a jump. Inverters may run a few
 * per cent above nameplate, and a reading's timestamp is the poll's, not the register's, so two polls can
 * land closer than the energy they bracket: 1.2 absorbs both, and still rejects the restart jumps seen in
 * practice (80 kWh in 41 s on a 1.2 MW plant is 7.3 MW, 6× its capacity).
 */
export const COUNTER_RATE_MARGIN = 1.2;

/** A counter advances in whole steps of its register (often 1 kWh): one step is always believable. */
export const COUNTER_RESOLUTION_KWH = 1;

/** Units whose counters are energy, so a power rating bounds them (energy-units.ts reads a missing one as kWh). */
const ENERGY_UNITS = new Set(['', 'wh', 'kwh', 'mwh']);

/**
 * The bound of an energy counter from the power that feeds it: the device's rated power, else the plant's AC
 * capacity (a grid meter has no rating of its own, and cannot export more than the plant makes), × the
 * margin; a counter of another unit, or with neither figure, is unbounded. In the counter's own unit.
 */
export function counterBoundOf(
  unit: string | null | undefined,
  ratedPowerKw: number | null | undefined,
  plantAcCapacityKw: number | null | undefined,
): CounterBound {
  if (!ENERGY_UNITS.has((unit ?? '').trim().toLowerCase())) return UNBOUNDED;
  const kw = ratedPowerKw && ratedPowerKw > 0 ? ratedPowerKw : plantAcCapacityKw;
  if (!kw || kw <= 0) return UNBOUNDED;
  const perUnit = kwhPerUnit(unit);
  return { maxPerHour: (kw * COUNTER_RATE_MARGIN) / perUnit, resolution: COUNTER_RESOLUTION_KWH / perUnit };
}

/** What one counter step is taken as: energy believed (`delta`) and energy claimed but refused (`rejected`). */
export interface CounterStep {
  delta: number;
  rejected: number;
}

/** An acc32 register rolls over at 2³²; the counter's value is the register × a power-of-ten scale. */
const ACC32 = 2 ** 32;
const WRAP_SCALES = [1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];
/** Without a bound, "near the wrap" means within this fraction of it. */
const WRAP_NEAR = 1e-3;

/** The smallest acc32 wrap point (2³² × a power of ten) at or above `value`; undefined above them all. */
function wrapAbove(value: number): number | undefined {
  for (const scale of WRAP_SCALES) if (value <= ACC32 * scale) return ACC32 * scale;
  return undefined;
}

/**
 * One step of a cumulative counter from `previous` to `point`, judged against what the device could
 * produce in the elapsed time (`bound`):
 * - an increase within the bound is energy; above it, a jump (a restart that rewrites the register, a
 *   reading of another register): rejected, never counted;
 * - a drop from near an acc32 wrap point (2³² × scale) is a wrap: the wrapped difference counts, when
 *   believable;
 * - another drop is a reset (device replaced, register cleared): the new value is what accrued since, and
 *   counts only when the bound allows it; a drop to a value the device could not have made since is a
 *   counter that went backwards, and counts nothing (its true energy cannot be known).
 * Without a previous reading nothing is known to have accrued. The method is pvanalytics'
 * quality.energy.convert_cumulative_energy (a cumulative counter differenced into interval energy) with
 * quality.util.check_limits applied to each difference as a rate against the device's rating, written anew.
 */
export function counterStep(
  previous: Point | null,
  point: Point,
  bound: CounterBound = UNBOUNDED,
): CounterStep {
  if (previous === null) return { delta: 0, rejected: 0 };
  const hours = Math.max(point.ts - previous.ts, 0) / 3_600_000;
  const allowed = bound.maxPerHour === null ? Infinity : bound.maxPerHour * hours + bound.resolution;
  const step = point.value - previous.value;
  if (step >= 0) return step <= allowed ? { delta: step, rejected: 0 } : { delta: 0, rejected: step };
  const wrap = wrapAbove(previous.value);
  if (wrap !== undefined) {
    const wrapped = wrap - previous.value + point.value;
    const near = bound.maxPerHour === null ? wrap - previous.value <= wrap * WRAP_NEAR : wrapped <= allowed;
    if (near && point.value < wrap * WRAP_NEAR) return { delta: wrapped, rejected: 0 };
  }
  return point.value <= allowed ? { delta: point.value, rejected: 0 } : { delta: 0, rejected: 0 };
}

/**
 * The believed increase of a cumulative counter from `previous` to `value` when nothing bounds it (see
 * counterStep): an increase, a wrap's difference, or after a reset the new value.
 */
export function counterDelta(previous: number | null, value: number): number {
  if (previous === null) return 0;
  return counterStep({ ts: 0, value: previous }, { ts: 0, value }).delta;
}

/**
 * Buckets of the points (sorted by ts), keyed by `bucketOf(ts)`. For a counter, `previous` is the last
 * point before the first one given (or only its value, when its time is unknown: that first step is then
 * not bounded), so the step into the first bucket is counted in it; `bound` judges each step.
 */
export function aggregatePoints(
  points: readonly Point[],
  bucketOf: (ts: number) => number,
  isCounter: boolean,
  previous: Point | number | null = null,
  bound: CounterBound = UNBOUNDED,
): Map<number, Aggregate> {
  const buckets = new Map<number, Aggregate>();
  let prev: Point | null =
    previous === null ? null : typeof previous === 'number' ? { ts: -Infinity, value: previous } : previous;
  let current: Aggregate | undefined;
  let currentKey = Number.NaN;
  for (const point of points) {
    const { ts, value } = point;
    const key = bucketOf(ts);
    const step = isCounter ? counterStep(prev, point, bound) : null;
    if (isCounter) prev = point;
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
        delta: step ? step.delta : null,
        rejected_delta: step ? step.rejected : null,
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
    if (step) {
      current.delta = (current.delta ?? 0) + step.delta;
      current.rejected_delta = (current.rejected_delta ?? 0) + step.rejected;
    }
  }
  return buckets;
}

const addNullable = (a: number | null, b: number | null) =>
  a === null && b === null ? null : (a ?? 0) + (b ?? 0);

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
    delta: addNullable(a.delta, b.delta),
    rejected_delta: addNullable(a.rejected_delta, b.rejected_delta),
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
    rejected_delta: row.rejected_delta ?? null,
  };
}
