import { sql } from 'kysely';
import { effectiveBounds, type RollupResolution, type ValueBounds } from '@solar/shared';
import type { Db, Dialect } from '../db/database';
import { counterBoundOf, type Aggregate, type CounterBound, type Point } from './aggregate';
import { chunks, compiled, valuesList } from './sql-batch';

/** Where a signal belongs, how its values roll up, and whether it takes data (ingest checks that). */
export interface SignalMeta {
  signal_id: number;
  device_id: number;
  plant_id: number;
  is_counter: boolean;
  time_zone: string;
  /** The signal and its device are both active. */
  active: boolean;
  /** The values ingest accepts: the signal's own bounds, else its unit's default for the device. */
  bounds: ValueBounds;
  /**
   * Counters: how far the counter can believably advance (its device's rating, else the plant's AC
   * capacity; aggregate.ts counterBoundOf); absent means unbounded.
   */
  counter_bound?: CounterBound;
}

export interface RawRow {
  signal_id: number;
  ts: number;
  value: number;
}

export type RollupRow = Aggregate & { signal_id: number; bucket: number };

export const ROLLUP_TABLE: Record<RollupResolution, 'telemetry_5m' | 'telemetry_1h' | 'telemetry_1d'> = {
  '5m': 'telemetry_5m',
  '1h': 'telemetry_1h',
  '1d': 'telemetry_1d',
};

const ROLLUP_COLUMNS = [
  'signal_id',
  'bucket',
  'min',
  'max',
  'sum',
  'count',
  'first',
  'first_ts',
  'last',
  'last_ts',
  'delta',
  'rejected_delta',
] as const;
/** The rollup tables' columns, quoted, in the order rollup statements list them. */
export const ROLLUP_COLUMN_LIST = ROLLUP_COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * How a rollup row meets a stored row with its key: `replace` overwrites it (rows rebuilt from raw);
 * `merge` combines the two in the statement, as mergeAggregates (aggregate.ts) does, so that new points
 * join a stored bucket without reading it first. In an UPDATE every right-hand side sees the stored row's
 * old values, on both databases.
 */
export type RollupConflict = 'replace' | 'merge';

/** The `do update set …` list of a rollup upsert into `table`. */
export function rollupConflictSet(dialect: Dialect, table: string, conflict: RollupConflict): string {
  if (conflict === 'replace')
    return ROLLUP_COLUMNS.slice(2)
      .map((c) => `"${c}" = excluded."${c}"`)
      .join(', ');
  const [least, greatest] = dialect === 'postgres' ? ['least', 'greatest'] : ['min', 'max'];
  const t = (c: string) => `"${table}"."${c}"`;
  const x = (c: string) => `excluded."${c}"`;
  return [
    `"min" = ${least}(${t('min')}, ${x('min')})`,
    `"max" = ${greatest}(${t('max')}, ${x('max')})`,
    `"sum" = ${t('sum')} + ${x('sum')}`,
    `"count" = ${t('count')} + ${x('count')}`,
    // The stored row wins a tie of first_ts, as the earlier argument of mergeAggregates does.
    `"first" = case when ${x('first_ts')} < ${t('first_ts')} then ${x('first')} else ${t('first')} end`,
    `"first_ts" = ${least}(${t('first_ts')}, ${x('first_ts')})`,
    `"last" = case when ${x('last_ts')} > ${t('last_ts')} then ${x('last')} else ${t('last')} end`,
    `"last_ts" = ${greatest}(${t('last_ts')}, ${x('last_ts')})`,
    `"delta" = case when ${t('delta')} is null and ${x('delta')} is null then null else coalesce(${t('delta')}, 0) + coalesce(${x('delta')}, 0) end`,
    `"rejected_delta" = case when ${t('rejected_delta')} is null and ${x('rejected_delta')} is null then null else coalesce(${t('rejected_delta')}, 0) + coalesce(${x('rejected_delta')}, 0) end`,
  ].join(', ');
}

const num = (v: unknown) => Number(v);
const toRollup = (r: Record<string, unknown>): RollupRow => ({
  signal_id: num(r.signal_id),
  bucket: num(r.bucket),
  min: num(r.min),
  max: num(r.max),
  sum: num(r.sum),
  count: num(r.count),
  first: num(r.first),
  first_ts: num(r.first_ts),
  last: num(r.last),
  last_ts: num(r.last_ts),
  delta: r.delta === null || r.delta === undefined ? null : num(r.delta),
  rejected_delta: r.rejected_delta === null || r.rejected_delta === undefined ? null : num(r.rejected_delta),
});

/**
 * Device, plant, counter flag, plant time zone, active flag and value bounds of each signal id that exists
 * (any scope).
 * The store uses it to roll points up, the ingest route to check them.
 */
export async function loadSignalMeta(
  db: Db,
  dialect: Dialect,
  ids: readonly number[],
): Promise<Map<number, SignalMeta>> {
  const out = new Map<number, SignalMeta>();
  for (const part of chunks(ids, 1, dialect)) {
    const rows = await db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .innerJoin('plants', 'plants.id', 'devices.plant_id')
      .select([
        'signals.id as signal_id',
        'signals.device_id',
        'devices.plant_id',
        'signals.is_counter',
        'plants.time_zone',
        'signals.is_active',
        'devices.is_active as device_active',
        'signals.unit',
        'signals.min_value',
        'signals.max_value',
        'devices.rated_power_kw',
        'plants.ac_capacity_kw',
      ])
      .where('signals.id', 'in', part)
      .execute();
    for (const r of rows) {
      out.set(r.signal_id, {
        signal_id: r.signal_id,
        device_id: r.device_id,
        plant_id: r.plant_id,
        is_counter: r.is_counter === 1,
        counter_bound:
          r.is_counter === 1
            ? counterBoundOf(
                r.unit,
                r.rated_power_kw === null ? null : Number(r.rated_power_kw),
                r.ac_capacity_kw === null ? null : Number(r.ac_capacity_kw),
              )
            : undefined,
        time_zone: r.time_zone,
        active: r.is_active === 1 && r.device_active === 1,
        bounds: effectiveBounds(
          {
            unit: r.unit,
            min_value: r.min_value === null ? null : Number(r.min_value),
            max_value: r.max_value === null ? null : Number(r.max_value),
          },
          r.rated_power_kw === null ? null : Number(r.rated_power_kw),
        ),
      });
    }
  }
  return out;
}

/** The raw insert's answer: the new rows, and where the store knows them, the values behind the others. */
export interface RawInsert {
  /** The points that were new, in the given order. */
  rows: RawRow[];
  /**
   * When known without another read: the stored value of every key that a point not inserted carries
   * (stored before the batch, or by an earlier point of the same batch), as `signal id → ts → value`.
   */
  storedValues?: Map<number, Map<number, number>>;
}

/**
 * INSERT … ON CONFLICT DO NOTHING; answers the rows that were new. PostgreSQL: insertRawPostgres. SQLite takes
 * multi-row chunks with RETURNING (the server's SQLite path uses prepared statements instead:
 * sqlite-store-io.ts).
 */
export async function insertRaw(db: Db, dialect: Dialect, points: readonly RawRow[]): Promise<RawInsert> {
  if (dialect === 'postgres') return insertRawPostgres(db, points);
  const inserted: RawRow[] = [];
  for (const part of chunks(points, 3, dialect)) {
    const params = new Array<number>(part.length * 3);
    for (let i = 0; i < part.length; i++) {
      const p = part[i]!;
      params[i * 3] = p.signal_id;
      params[i * 3 + 1] = p.ts;
      params[i * 3 + 2] = p.value;
    }
    const text = `insert into "telemetry_raw" ("signal_id","ts","value") values ${valuesList(dialect, part.length, 3)} on conflict do nothing returning "signal_id","ts","value"`;
    const { rows } = await db.executeQuery<RawRow>(compiled(text, params));
    for (const r of rows) inserted.push({ signal_id: r.signal_id, ts: Number(r.ts), value: r.value });
  }
  return { rows: inserted };
}

/** Three parallel arrays of the points, as unnest takes them. */
function columnsOf(points: readonly RawRow[]) {
  const ids = new Array<number>(points.length);
  const ts = new Array<number>(points.length);
  const values = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    ids[i] = p.signal_id;
    ts[i] = p.ts;
    values[i] = p.value;
  }
  return { ids, ts, values };
}

/**
 * The PostgreSQL raw insert, without RETURNING (which sends every stored row back and was most of the
 * statement's time; docs/benchmarks.md):
 * 1. one read of the stored points inside each signal's [first, last] span of the batch — an index range
 *    probe per signal, empty for live data and for a gateway catching up;
 * 2. in memory, the points whose key is stored, or came earlier in the batch, are the duplicates, with the
 *    values they repeat (for the identical/conflicting counts);
 * 3. one `unnest` insert of the rest, ON CONFLICT DO NOTHING, whose row count must equal their number.
 * A concurrent writer can store one of those keys between 1 and 3; the count then falls short, and the batch
 * goes back to a savepoint and takes the RETURNING insert instead, so the answer stays exact.
 */
async function insertRawPostgres(db: Db, points: readonly RawRow[]): Promise<RawInsert> {
  const spans = new Map<number, [number, number]>();
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (const p of points) {
    const span = spans.get(p.signal_id);
    if (!span) spans.set(p.signal_id, [p.ts, p.ts]);
    else {
      if (p.ts < span[0]) span[0] = p.ts;
      if (p.ts > span[1]) span[1] = p.ts;
    }
    if (p.ts < minTs) minTs = p.ts;
    if (p.ts > maxTs) maxTs = p.ts;
  }
  const spanIds = [...spans.keys()];
  const from = spanIds.map((id) => spans.get(id)![0]);
  const to = spanIds.map((id) => spans.get(id)![1]);
  // The outer ts range lets the planner skip the months (partitions) the batch does not touch.
  const { rows: before } = await sql<RawRow>`
    select r.signal_id, r.ts, r.value
    from telemetry_raw r
    join unnest(${spanIds}::integer[], ${from}::bigint[], ${to}::bigint[]) as k(s, lo, hi)
      on r.signal_id = k.s and r.ts >= k.lo and r.ts <= k.hi
    where r.ts >= ${minTs} and r.ts <= ${maxTs}`.execute(db);

  /** Every key stored or taken by this batch so far, with its value. */
  const values = new Map<number, Map<number, number>>();
  for (const r of before) {
    let bySignal = values.get(r.signal_id);
    if (!bySignal) values.set(r.signal_id, (bySignal = new Map<number, number>()));
    bySignal.set(Number(r.ts), Number(r.value));
  }
  const fresh: RawRow[] = [];
  let repeats = false;
  for (const p of points) {
    let bySignal = values.get(p.signal_id);
    if (!bySignal) values.set(p.signal_id, (bySignal = new Map<number, number>()));
    if (bySignal.has(p.ts)) repeats = true;
    else {
      bySignal.set(p.ts, p.value);
      fresh.push(p);
    }
  }
  if (fresh.length === 0) return { rows: fresh, storedValues: values };

  await sql`savepoint raw_insert`.execute(db);
  const { ids, ts, values: vals } = columnsOf(fresh);
  const result = await sql`
    insert into telemetry_raw (signal_id, ts, value)
    select * from unnest(${ids}::integer[], ${ts}::bigint[], ${vals}::double precision[])
    on conflict do nothing`.execute(db);
  if (Number(result.numAffectedRows ?? -1) === fresh.length) {
    await sql`release savepoint raw_insert`.execute(db);
    return { rows: fresh, storedValues: repeats ? values : undefined };
  }
  // Someone else stored some of these keys meanwhile: insert again, learning which rows are ours.
  await sql`rollback to savepoint raw_insert`.execute(db);
  const all = columnsOf(points);
  const { rows } = await sql<RawRow>`
    insert into telemetry_raw (signal_id, ts, value)
    select * from unnest(${all.ids}::integer[], ${all.ts}::bigint[], ${all.values}::double precision[])
    on conflict do nothing
    returning signal_id, ts, value`.execute(db);
  return { rows: rows.map((r) => ({ signal_id: r.signal_id, ts: Number(r.ts), value: r.value })) };
}

/** The advisory lock key of rollup maintenance: alone (bigint) for all rollups, with a device id (two int4s) for one device's. */
export const ROLLUP_LOCK_KEY = 5_470_001;

/** A batch of more devices than this locks all rollups at once instead of each device's (bounded lock table). */
export const ROLLUP_DEVICE_LOCKS_MAX = 256;

/**
 * PostgreSQL only (SQLite's one connection runs one batch at a time). Serialises rollup maintenance of the
 * same devices across the transactions and processes sharing one PostgreSQL (released at commit): the
 * rollups, latest values and last-data time of a device are read, merged and written back, so two batches
 * of one device must not interleave. Batches of other devices go on at once (the load suite's batches, one
 * plant each, queued behind one database-wide lock before).
 *
 * Each device's lock is taken in ascending id order in one statement, so two batches sharing devices never
 * wait on each other in a cycle; every batch first holds the all-rollups key shared. A batch of more than
 * ROLLUP_DEVICE_LOCKS_MAX devices (an MQTT batch of a whole fleet) takes that key exclusive instead: each
 * advisory lock takes a slot of PostgreSQL's shared lock table (max_locks_per_transaction × connections,
 * 6,400 by default), and thousands per batch could exhaust it. The lock is taken after the raw insert,
 * whose only waits (a concurrent insert of the same key) happen before a batch holds any of these locks.
 */
export async function lockRollups(db: Db, deviceIds: readonly number[]): Promise<void> {
  if (deviceIds.length > ROLLUP_DEVICE_LOCKS_MAX) {
    await sql`select pg_advisory_xact_lock(${ROLLUP_LOCK_KEY}::bigint)`.execute(db);
    return;
  }
  const ascending = Int32Array.from(new Set(deviceIds)).sort();
  // unnest yields the array in its order, and the aggregate takes the locks row by row in that order.
  await sql`select pg_advisory_xact_lock_shared(${ROLLUP_LOCK_KEY}::bigint),
      (select count(pg_advisory_xact_lock(${ROLLUP_LOCK_KEY}::int4, d)) from unnest(${[...ascending]}::int4[]) as t(d))`.execute(
    db,
  );
}

/** The stored latest point of each signal. */
export async function readLatest(
  db: Db,
  dialect: Dialect,
  ids: readonly number[],
): Promise<Map<number, Point>> {
  const out = new Map<number, Point>();
  for (const part of chunks(ids, 1, dialect)) {
    const rows = await db
      .selectFrom('telemetry_latest')
      .select(['signal_id', 'ts', 'value'])
      .where('signal_id', 'in', part)
      .execute();
    for (const r of rows) out.set(r.signal_id, { ts: Number(r.ts), value: r.value });
  }
  return out;
}

/** Sets each signal's latest point, only where the given one is newer than the stored one. */
export async function upsertLatest(db: Db, dialect: Dialect, rows: readonly RawRow[]): Promise<void> {
  for (const part of chunks(rows, 3, dialect)) {
    const params = part.flatMap((r) => [r.signal_id, r.ts, r.value]);
    const text = `insert into "telemetry_latest" ("signal_id","ts","value") values ${valuesList(dialect, part.length, 3)} on conflict ("signal_id") do update set "ts" = excluded."ts", "value" = excluded."value" where excluded."ts" > "telemetry_latest"."ts"`;
    await db.executeQuery(compiled(text, params));
  }
}

/** Sets each device's newest sample time, only where the given one is newer than the stored one. */
export async function upsertDeviceLastData(
  db: Db,
  rows: readonly { device_id: number; ts: number }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1_000)
    await db
      .insertInto('device_last_data')
      .values(rows.slice(i, i + 1_000))
      .onConflict((oc) =>
        oc
          .column('device_id')
          .doUpdateSet((eb) => ({ ts: eb.ref('excluded.ts') }))
          .whereRef('excluded.ts', '>', 'device_last_data.ts'),
      )
      .execute();
}

/** The stored rollup rows with these (signal_id, bucket) keys. */
export async function readRollupKeys(
  db: Db,
  dialect: Dialect,
  resolution: RollupResolution,
  keys: readonly { signal_id: number; bucket: number }[],
): Promise<RollupRow[]> {
  if (dialect === 'postgres') {
    if (!keys.length) return [];
    // Two array parameters instead of a VALUES list of 2 casts a key: thousands of keys a batch (MQTT).
    const { rows } = await sql<Record<string, unknown>>`
      select t.* from ${sql.table(ROLLUP_TABLE[resolution])} t
      join unnest(${keys.map((k) => k.signal_id)}::integer[], ${keys.map((k) => k.bucket)}::bigint[]) as k(s, b)
        on t.signal_id = k.s and t.bucket = k.b`.execute(db);
    return rows.map(toRollup);
  }
  const out: RollupRow[] = [];
  for (const part of chunks(keys, 2, dialect)) {
    const params = part.flatMap((k) => [k.signal_id, k.bucket]);
    const text = `with k(s, b) as (values ${valuesList(dialect, part.length, 2, ['integer', 'bigint'])}) select t.* from "${ROLLUP_TABLE[resolution]}" t join k on t."signal_id" = k.s and t."bucket" = k.b`;
    const { rows } = await db.executeQuery<Record<string, unknown>>(compiled(text, params));
    for (const r of rows) out.push(toRollup(r));
  }
  return out;
}

/** Rollup rows of one signal with bucket in [from, to), oldest first. */
export async function readRollupRange(
  db: Db,
  resolution: RollupResolution,
  signalId: number,
  from: number,
  to: number,
): Promise<RollupRow[]> {
  const rows = await db
    .selectFrom(ROLLUP_TABLE[resolution])
    .selectAll()
    .where('signal_id', '=', signalId)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .orderBy('bucket')
    .execute();
  return rows.map((r) => toRollup(r as unknown as Record<string, unknown>));
}

/** The rollup row just before `bucket` (for a counter: its last value precedes the bucket) and the first one after. */
export async function rollupNeighbours(
  db: Db,
  resolution: RollupResolution,
  signalId: number,
  before: number,
  after: number,
): Promise<{ previous?: RollupRow; next?: RollupRow }> {
  const table = ROLLUP_TABLE[resolution];
  const previous = await db
    .selectFrom(table)
    .selectAll()
    .where('signal_id', '=', signalId)
    .where('bucket', '<', before)
    .orderBy('bucket', 'desc')
    .limit(1)
    .executeTakeFirst();
  const next = await db
    .selectFrom(table)
    .selectAll()
    .where('signal_id', '=', signalId)
    .where('bucket', '>', after)
    .orderBy('bucket', 'asc')
    .limit(1)
    .executeTakeFirst();
  return {
    previous: previous && toRollup(previous),
    next: next && toRollup(next),
  };
}

/** One signal's range [from, to) of raw timestamps or rollup buckets. */
export interface Span {
  signal_id: number;
  from: number;
  to: number;
}

const groupBySignal = <T>(rows: readonly { signal_id: number }[], map: (r: never) => T) => {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const id = Number(r.signal_id);
    let list = out.get(id);
    if (!list) out.set(id, (list = []));
    list.push(map(r as never));
  }
  return out;
};

/**
 * Raw points of each span, oldest first, by signal. PostgreSQL reads all spans in one statement (a batch
 * recomputes many counters at once; one round trip each was most of its time), SQLite one span a time.
 */
export async function readRawRanges(
  db: Db,
  dialect: Dialect,
  spans: readonly Span[],
): Promise<Map<number, Point[]>> {
  if (dialect !== 'postgres') {
    const out = new Map<number, Point[]>();
    for (const s of spans) out.set(s.signal_id, await readRawRange(db, s.signal_id, s.from, s.to));
    return out;
  }
  if (!spans.length) return new Map();
  const { ids, from, to, min, max } = spanColumns(spans);
  const { rows } = await sql<RawRow>`
    select r.signal_id, r.ts, r.value
    from telemetry_raw r
    join unnest(${ids}::integer[], ${from}::bigint[], ${to}::bigint[]) as k(s, lo, hi)
      on r.signal_id = k.s and r.ts >= k.lo and r.ts < k.hi
    where r.ts >= ${min} and r.ts < ${max}
    order by r.signal_id, r.ts`.execute(db);
  return groupBySignal(rows, (r: RawRow) => ({ ts: Number(r.ts), value: Number(r.value) }));
}

/** Rollup rows of each span, oldest first, by signal (one statement on PostgreSQL, as readRawRanges). */
export async function readRollupRanges(
  db: Db,
  dialect: Dialect,
  resolution: RollupResolution,
  spans: readonly Span[],
): Promise<Map<number, RollupRow[]>> {
  if (dialect !== 'postgres') {
    const out = new Map<number, RollupRow[]>();
    for (const s of spans)
      out.set(s.signal_id, await readRollupRange(db, resolution, s.signal_id, s.from, s.to));
    return out;
  }
  if (!spans.length) return new Map();
  const { ids, from, to } = spanColumns(spans);
  const { rows } = await sql<Record<string, unknown> & { signal_id: number }>`
    select t.*
    from ${sql.table(ROLLUP_TABLE[resolution])} t
    join unnest(${ids}::integer[], ${from}::bigint[], ${to}::bigint[]) as k(s, lo, hi)
      on t.signal_id = k.s and t.bucket >= k.lo and t.bucket < k.hi
    order by t.signal_id, t.bucket`.execute(db);
  return groupBySignal(rows, toRollup);
}

/**
 * For each span, the rollup row just before `from` and the first one after `to` (see rollupNeighbours), by
 * signal; one statement per direction on PostgreSQL.
 */
export async function rollupNeighboursOf(
  db: Db,
  dialect: Dialect,
  resolution: RollupResolution,
  spans: readonly Span[],
): Promise<Map<number, { previous?: RollupRow; next?: RollupRow }>> {
  const out = new Map<number, { previous?: RollupRow; next?: RollupRow }>();
  if (dialect !== 'postgres') {
    for (const s of spans)
      out.set(s.signal_id, await rollupNeighbours(db, resolution, s.signal_id, s.from, s.to));
    return out;
  }
  if (!spans.length) return out;
  const table = sql.table(ROLLUP_TABLE[resolution]);
  const { ids, from, to } = spanColumns(spans);
  for (const s of spans) out.set(s.signal_id, {});
  const { rows: previous } = await sql<Record<string, unknown> & { signal_id: number }>`
    select p.* from unnest(${ids}::integer[], ${from}::bigint[]) as k(s, b)
    cross join lateral (
      select * from ${table} t where t.signal_id = k.s and t.bucket < k.b order by t.bucket desc limit 1
    ) p`.execute(db);
  for (const r of previous) out.get(Number(r.signal_id))!.previous = toRollup(r);
  const { rows: next } = await sql<Record<string, unknown> & { signal_id: number }>`
    select n.* from unnest(${ids}::integer[], ${to}::bigint[]) as k(s, b)
    cross join lateral (
      select * from ${table} t where t.signal_id = k.s and t.bucket > k.b order by t.bucket asc limit 1
    ) n`.execute(db);
  for (const r of next) out.get(Number(r.signal_id))!.next = toRollup(r);
  return out;
}

function spanColumns(spans: readonly Span[]) {
  const ids = spans.map((s) => s.signal_id);
  const from = spans.map((s) => s.from);
  const to = spans.map((s) => s.to);
  return { ids, from, to, min: Math.min(...from), max: Math.max(...to) };
}

/** Raw points of one signal with ts in [from, to), oldest first. */
export async function readRawRange(db: Db, signalId: number, from: number, to: number): Promise<Point[]> {
  const rows = await db
    .selectFrom('telemetry_raw')
    .select(['ts', 'value'])
    .where('signal_id', '=', signalId)
    .where('ts', '>=', from)
    .where('ts', '<', to)
    .orderBy('ts')
    .execute();
  return rows.map((r) => ({ ts: Number(r.ts), value: r.value }));
}

/** Writes rollup rows; a stored row with the same key is replaced or merged with (`conflict`). */
export async function upsertRollups(
  db: Db,
  dialect: Dialect,
  resolution: RollupResolution,
  rows: readonly RollupRow[],
  conflict: RollupConflict,
): Promise<void> {
  const table = ROLLUP_TABLE[resolution];
  const width = ROLLUP_COLUMNS.length;
  const updates = rollupConflictSet(dialect, table, conflict);
  if (dialect === 'postgres') {
    if (!rows.length) return;
    // One array parameter a column (12) instead of 12 placeholders a row, which PostgreSQL parses and binds
    // one by one: a batch from MQTT writes thousands of rows per resolution. PostgreSQL refuses to update
    // a row twice in one statement, so each (signal, bucket) must come once (the store's rows do).
    const col = <K extends keyof RollupRow>(key: K) => rows.map((r) => r[key]);
    await sql`
      insert into ${sql.table(table)} (${sql.raw(ROLLUP_COLUMN_LIST)})
      select * from unnest(
        ${col('signal_id')}::integer[], ${col('bucket')}::bigint[], ${col('min')}::double precision[],
        ${col('max')}::double precision[], ${col('sum')}::double precision[], ${col('count')}::integer[],
        ${col('first')}::double precision[], ${col('first_ts')}::bigint[], ${col('last')}::double precision[],
        ${col('last_ts')}::bigint[], ${col('delta')}::double precision[],
        ${col('rejected_delta')}::double precision[])
      on conflict ("signal_id","bucket") do update set ${sql.raw(updates)}`.execute(db);
    return;
  }
  for (const part of chunks(rows, width, dialect)) {
    const params: unknown[] = [];
    for (const r of part) {
      params.push(
        r.signal_id,
        r.bucket,
        r.min,
        r.max,
        r.sum,
        r.count,
        r.first,
        r.first_ts,
        r.last,
        r.last_ts,
        r.delta,
        r.rejected_delta,
      );
    }
    const text = `insert into "${table}" (${ROLLUP_COLUMN_LIST}) values ${valuesList(dialect, part.length, width)} on conflict ("signal_id","bucket") do update set ${updates}`;
    await db.executeQuery(compiled(text, params));
  }
}

/** The stored value of each raw point with these (signal_id, ts) keys, keyed `signal_id:ts`. */
export async function readRawValues(
  db: Db,
  dialect: Dialect,
  keys: readonly { signal_id: number; ts: number }[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks(keys, 2, dialect)) {
    const params = part.flatMap((k) => [k.signal_id, k.ts]);
    const text = `with k(s, t) as (values ${valuesList(dialect, part.length, 2, ['integer', 'bigint'])}) select r."signal_id", r."ts", r."value" from "telemetry_raw" r join k on r."signal_id" = k.s and r."ts" = k.t`;
    const { rows } = await db.executeQuery<RawRow>(compiled(text, params));
    for (const r of rows) out.set(`${r.signal_id}:${Number(r.ts)}`, Number(r.value));
  }
  return out;
}

/** One per-device ingest counter increment. */
export interface IngestCountRow {
  device_id: number;
  reason: string;
  count: number;
  last_at: number;
}

/** Of these device ids, those that still exist (a counter of a deleted device has nowhere to go). */
export async function existingDeviceIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('devices').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Adds to each (device, reason) counter, creating it on first use; last_at only moves forward. */
export async function addIngestCounts(db: Db, rows: readonly IngestCountRow[]): Promise<void> {
  // 4 parameters a row: 500 rows stay far below either dialect's bind-parameter limit.
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('device_ingest_counts')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc.columns(['device_id', 'reason']).doUpdateSet((eb) => ({
          count: eb('device_ingest_counts.count', '+', eb.ref('excluded.count')),
          last_at: eb
            .case()
            .when('excluded.last_at', '>', eb.ref('device_ingest_counts.last_at'))
            .then(eb.ref('excluded.last_at'))
            .else(eb.ref('device_ingest_counts.last_at'))
            .end(),
        })),
      )
      .execute();
  }
}

/** A device's stored ingest counters. */
export async function readIngestCounts(db: Db, deviceId: number): Promise<IngestCountRow[]> {
  const rows = await db
    .selectFrom('device_ingest_counts')
    .select(['device_id', 'reason', 'count', 'last_at'])
    .where('device_id', '=', deviceId)
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count), last_at: Number(r.last_at) }));
}
