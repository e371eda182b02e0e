import { sql, type Expression, type JoinBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RollupResolution } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { ROLLUP_TABLE } from './telemetry-store.repository';

/**
 * The store's read API (docs/architecture.md, "Telemetry"): every reader outside `telemetry-store/` goes
 * through these, and only this folder (and the schema in db/) names a telemetry table. Two kinds:
 *
 * - typed reads by signal id: raw range, rollups at a granularity, latest, a counter's difference over
 *   local days, series of many signals;
 * - relations for the grouped reads that join telemetry to signals, devices and plants in one statement
 *   (the fleet overview, device status, daily energy): `fromTelemetry` and `leftJoinTelemetry`
 *   put a telemetry table into the caller's query under an alias of its choosing, so
 *   the statement is the one it always was (same joins, same indexes) while the table stays named here.
 */

/** What can be read: raw points, the latest point per signal, or a rollup at a granularity. */
export type TelemetryRelation = 'raw' | 'latest' | RollupResolution;

const TABLE = {
  raw: 'telemetry_raw',
  latest: 'telemetry_latest',
  ...ROLLUP_TABLE,
} as const satisfies Record<TelemetryRelation, keyof Database>;

type RowOf<R extends TelemetryRelation> = Database[(typeof TABLE)[R]];
type Nullable<T> = { [K in keyof T]: T[K] | null };

/** Which rows of a relation join: raw and latest by `ts`, rollups by bucket start. */
export type TimeMatch =
  | { at: number | Expression<number> }
  | { from: number | Expression<number>; through?: number | Expression<number> };

/** The time column of a relation: raw and latest points carry `ts`, rollups `bucket`. */
const timeColumn = (relation: TelemetryRelation) =>
  relation === 'raw' || relation === 'latest' ? 'ts' : 'bucket';

/** A query on a telemetry relation under an alias, nothing selected yet (as Kysely's own selectFrom). */
type FromTelemetry<R extends TelemetryRelation, A extends string> = SelectQueryBuilder<
  Database & Record<A, RowOf<R>>,
  A,
  Record<never, never>
>;

/**
 * `select … from <relation> as <alias>`: a grouped read whose driving table is telemetry (for example the
 * days that have daily rollups). The caller adds joins, columns (`alias.column`) and conditions.
 */
export function fromTelemetry<R extends TelemetryRelation, A extends string>(
  db: Db,
  relation: R,
  alias: A,
): FromTelemetry<R, A> {
  // Kysely types `'table as alias'` only for literal strings; the answer's type is spelled out instead.
  const loose = db as unknown as Kysely<Loose>;
  return loose.selectFrom(`${TABLE[relation]} as ${alias}`) as unknown as FromTelemetry<R, A>;
}

type JoinOn<DB, TB extends keyof DB> = {
  /** The signal id the relation's rows belong to, as a column of the query (`'signals.id'`). */
  signal: `${TB & string}.${string}`;
  time?: TimeMatch;
};

/**
 * Kysely's join types cannot follow a query generic in its tables: the join is built on the same query seen
 * with loose tables (any table, any column), and the answer's type is spelled out by the callers below.
 */
type Loose = Record<string, Record<string, unknown>>;
type LooseQuery = SelectQueryBuilder<Loose, string, unknown>;

function joinCondition(relation: TelemetryRelation, alias: string, on: { signal: string; time?: TimeMatch }) {
  const column = `${alias}.${timeColumn(relation)}`;
  return (join: JoinBuilder<Loose, string>) => {
    let j = join.onRef(`${alias}.signal_id`, '=', on.signal);
    const time = on.time;
    if (time && 'at' in time) j = j.on(column, '=', time.at);
    else if (time) {
      j = j.on(column, '>=', time.from);
      if (time.through !== undefined) j = j.on(column, '<=', time.through);
    }
    return j;
  };
}

/**
 * `left join <relation> as <alias> on alias.signal_id = <on.signal> [and its time matches]`: its columns are
 * null where no row matches.
 */
export function leftJoinTelemetry<DB, TB extends keyof DB, O, R extends TelemetryRelation, A extends string>(
  qb: SelectQueryBuilder<DB, TB, O>,
  relation: R,
  alias: A,
  on: JoinOn<DB, TB>,
): SelectQueryBuilder<DB & Record<A, Nullable<RowOf<R>>>, TB | A, O> {
  const loose = qb as unknown as LooseQuery;
  return loose.leftJoin(
    `${TABLE[relation]} as ${alias}`,
    joinCondition(relation, alias, on),
  ) as unknown as SelectQueryBuilder<DB & Record<A, Nullable<RowOf<R>>>, TB | A, O>;
}

/** Ids per statement: far below either dialect's bind-parameter limit. */
const ID_CHUNK = 5_000;

async function inChunks<T>(ids: readonly number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length <= ID_CHUNK) return read([...ids]);
  let out: T[] = [];
  // concat, not push(...rows): a chunk of a large fleet has more rows than a call may have arguments.
  for (let i = 0; i < ids.length; i += ID_CHUNK) out = out.concat(await read(ids.slice(i, i + ID_CHUNK)));
  return out;
}

const num = (v: number | string | bigint | null | undefined) =>
  v === null || v === undefined ? null : Number(v);

/** One stored rollup bucket of a signal. */
export interface RollupBucket {
  signalId: number;
  bucket: number;
  sum: number;
  count: number;
  last: number;
  delta: number | null;
  /** Counters: what the counter claimed beyond its device's bound (aggregate.ts counterStep), not in delta. */
  rejectedDelta: number | null;
}

/** Rollup buckets of the signals at `resolution` with start in [fromMs, toMs). */
export async function readRollups(
  db: Db,
  resolution: RollupResolution,
  signalIds: readonly number[],
  fromMs: number,
  toMs: number,
): Promise<RollupBucket[]> {
  if (signalIds.length === 0) return [];
  const rows = await inChunks(signalIds, (part) =>
    db
      .selectFrom(ROLLUP_TABLE[resolution])
      .select(['signal_id', 'bucket', 'sum', 'count', 'last', 'delta', 'rejected_delta'])
      .where('signal_id', 'in', part)
      .where('bucket', '>=', fromMs)
      .where('bucket', '<', toMs)
      .execute(),
  );
  return rows.map((r) => ({
    signalId: r.signal_id,
    bucket: Number(r.bucket),
    sum: Number(r.sum),
    count: Number(r.count),
    last: Number(r.last),
    delta: num(r.delta),
    rejectedDelta: num(r.rejected_delta),
  }));
}

/**
 * What each counter counted over the local days starting in [fromDayMs, toDayMs): the sum of its daily
 * deltas (their rollup's last value minus the one before the day, aggregate.ts). A counter with daily
 * buckets but no delta in them maps to null; one without buckets is absent.
 */
export async function readCounterDeltas(
  db: Db,
  signalIds: readonly number[],
  fromDayMs: number,
  toDayMs: number,
): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  for (const b of await readRollups(db, '1d', signalIds, fromDayMs, toDayMs)) {
    const before = out.get(b.signalId) ?? null;
    out.set(b.signalId, b.delta === null ? before : (before ?? 0) + b.delta);
  }
  return out;
}

/** Newest sample time of any of the signals (one latest row per signal); null when none reported. */
export async function readNewestTs(db: Db, signalIds: readonly number[]): Promise<number | null> {
  if (signalIds.length === 0) return null;
  const rows = await inChunks(signalIds, (part) =>
    db
      .selectFrom('telemetry_latest')
      .select((eb) => eb.fn.max('ts').as('ts'))
      .where('signal_id', 'in', part)
      .execute(),
  );
  return rows.reduce<number | null>((m, r) => {
    const ts = num(r.ts);
    return ts !== null && (m === null || ts > m) ? ts : m;
  }, null);
}

export { readLatest } from './telemetry-store.repository';

/** A series' points: [bucket start or ts (epoch ms), the value or null (none, or not finite)]. */
export type SeriesPoints = [number, number | null][];

/** What a series shows of each bucket (shared `telemetryQuery.agg`). */
export type RollupAgg = 'avg' | 'min' | 'max' | 'last' | 'sum';

/** One signal of a rollup series read: its id, the first bucket start it wants, and whether it is a counter. */
export interface RollupSignal {
  id: number;
  from: number;
  counter: boolean;
}

/**
 * A signal's points from readRollupSeries' or readRawSeries' PostgreSQL answer: n timestamps (int8, big-endian:
 * int8send) then n values (float8, big-endian: float8send). The bits are the stored double's, so the value
 * is exactly the one a row would have carried; with `finiteOrNull` one that is not finite becomes null.
 * Sorted by timestamp if it ever was not.
 */
function decodePoints(bytes: Buffer, finiteOrNull = true): SeriesPoints {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength / 16;
  // Filled by push, not preallocated: a packed array, which JSON.stringify walks faster than a holey one.
  const points: SeriesPoints = [];
  let sorted = true;
  for (let i = 0; i < n; i++) {
    // Two 32-bit halves: exact for any bucket (|ms| < 2^53), and faster than a BigInt.
    const bucket = view.getInt32(i * 8) * 2 ** 32 + view.getUint32(i * 8 + 4);
    const value = view.getFloat64((n + i) * 8);
    if (i > 0 && points[i - 1]![0] >= bucket) sorted = false;
    points.push([bucket, !finiteOrNull || Number.isFinite(value) ? value : null]);
  }
  if (!sorted) points.sort((a, b) => a[0] - b[0]);
  return points;
}

/**
 * Raw points of the signals with ts in [from, to), per signal id, oldest first (a signal without points has
 * none). PostgreSQL answers one row per signal with its points as binary arrays, as readRollupSeries does (a
 * day of 1-minute points of 50 signals is 72,000 rows otherwise); SQLite answers rows.
 */
export async function readRawSeries(
  db: Db,
  dialect: Dialect,
  ids: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, SeriesPoints>> {
  const out = new Map<number, SeriesPoints>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ signal_id: number; points: Buffer | null }>`
      select s.id as signal_id,
        (select string_agg(int8send(v.ts), ''::bytea) || string_agg(float8send(v.value), ''::bytea)
           from (select r.ts, r.value
                   from telemetry_raw r
                  where r.signal_id = s.id and r.ts >= ${from} and r.ts < ${to}
                  order by r.ts) v) as points
      from unnest(${ids}::int[]) as s(id)`.execute(db);
    // Raw values are stored as ingest accepted them: passed on as they are, like the row path (no null).
    for (const r of rows) if (r.points) out.set(r.signal_id, decodePoints(r.points, false));
    return out;
  }
  const rows = await db
    .selectFrom('telemetry_raw')
    .select(['signal_id', 'ts', 'value'])
    .where('signal_id', 'in', ids)
    .where('ts', '>=', from)
    .where('ts', '<', to)
    .orderBy('signal_id')
    .orderBy('ts')
    .execute();
  for (const r of rows) out.get(r.signal_id)!.push([Number(r.ts), r.value]);
  return out;
}

/**
 * The value of `agg` per rollup bucket of each signal, bucket in [signal.from, to), oldest first, by signal
 * id (a signal without buckets has none). The database computes the value: avg = sum / count; sum is a
 * counter's delta (its energy) and any other signal's sum of values; min, max and last as stored. A value
 * that is not a finite number (a bucket written before ingest bounds existed may hold ±Infinity) is null.
 *
 * PostgreSQL answers **one row per signal** carrying its points as binary arrays in a bytea (its buckets,
 * then its values: decodePoints), built by a range scan of the primary key (signal_id, bucket) per signal:
 * 14,400 five-minute buckets of 50 signals are 50 rows, not 14,400. Per row, the driver's work (protocol
 * messages, a row object, a text parser per column) and the server's number-to-text output cost several
 * times the scan itself (docs/benchmarks.md); binary needs neither, and carries the double's exact bits.
 * SQLite answers rows (in-process, no wire) in primary-key order.
 */
export async function readRollupSeries(
  db: Db,
  dialect: Dialect,
  resolution: RollupResolution,
  signals: readonly RollupSignal[],
  agg: RollupAgg,
  to: number,
): Promise<Map<number, SeriesPoints>> {
  const table = ROLLUP_TABLE[resolution];
  const out = new Map<number, SeriesPoints>(signals.map((s) => [s.id, []]));
  if (signals.length === 0) return out;
  if (dialect === 'postgres') {
    const value =
      agg === 'avg'
        ? sql`r.sum / r.count`
        : agg === 'sum'
          ? sql`case when s.counter then coalesce(r.delta, 0) else r.sum end`
          : sql.ref(`r.${agg}`);
    // Per signal: its own range, read in key order by a range scan of the primary key. Both aggregates take
    // the same rows in the same order (an ORDER BY inside them would sort the rows again, +40 % on the
    // server); PostgreSQL does not promise that order, so it is checked below and restored if it differs.
    // A value is never null (NOT NULL columns, delta coalesced); were it one, NaN keeps the halves aligned.
    const { rows } = await sql<{ signal_id: number; points: Buffer | null }>`
      select s.id as signal_id,
        (select string_agg(int8send(v.bucket), ''::bytea) || string_agg(float8send(coalesce(v.value, 'NaN')), ''::bytea)
           from (select r.bucket, ${value} as value
                   from ${sql.table(table)} r
                  where r.signal_id = s.id and r.bucket >= s.from_bucket and r.bucket < ${to}
                  order by r.bucket) v) as points
      from unnest(
        ${signals.map((s) => s.id)}::int[],
        ${signals.map((s) => s.from)}::int8[],
        ${signals.map((s) => s.counter)}::bool[]
      ) as s(id, from_bucket, counter)`.execute(db);
    for (const r of rows) if (r.points) out.set(r.signal_id, decodePoints(r.points));
    return out;
  }
  const counterIds = signals.filter((s) => s.counter).map((s) => s.id);
  const starts = new Map(signals.map((s) => [s.id, s.from]));
  const rows = await db
    .selectFrom(table)
    .select((eb) => {
      let value;
      switch (agg) {
        case 'avg':
          value = eb(eb.ref('sum'), '/', eb.ref('count'));
          break;
        case 'sum':
          value =
            counterIds.length === 0
              ? eb.ref('sum')
              : eb
                  .case()
                  .when('signal_id', 'in', counterIds)
                  .then(eb.fn.coalesce('delta', eb.lit(0)))
                  .else(eb.ref('sum'))
                  .end();
          break;
        default:
          value = eb.ref(agg);
      }
      return ['signal_id', 'bucket', value.as('value')];
    })
    .where(
      'signal_id',
      'in',
      signals.map((s) => s.id),
    )
    .where('bucket', '>=', Math.min(...starts.values()))
    .where('bucket', '<', to)
    .orderBy('signal_id')
    .orderBy('bucket')
    .execute();
  let series: SeriesPoints = [];
  let current = -1;
  let start = 0;
  for (const r of rows) {
    // Rows come by signal: look the signal up once per run of its rows, not per bucket.
    if (r.signal_id !== current) {
      current = r.signal_id;
      series = out.get(current)!;
      start = starts.get(current)!;
    }
    const bucket = Number(r.bucket);
    if (bucket < start) continue;
    const value = r.value === null ? null : Number(r.value);
    series.push([bucket, value !== null && Number.isFinite(value) ? value : null]);
  }
  return out;
}
