import { sql } from 'kysely';
import type { RollupResolution } from '@solar/shared';
import type { Db, Dialect } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { ROLLUP_TABLE } from '../../telemetry-store/telemetry-store.repository';

/** Plant ids a limited scope reaches. */
export async function reachablePlantIds(db: Db, scope: Scope & { all: false }): Promise<Set<number>> {
  const rows = await reachable.plants(db, scope).execute();
  return new Set(rows.map((r) => r.id));
}

/** What a series carries besides its points. */
export interface SeriesSignal {
  signal_id: number;
  device_id: number;
  device_name: string;
  key: string;
  name: string;
  unit: string | null;
  is_counter: boolean;
  plant_id: number;
  plant_name: string;
  time_zone: string;
}

function signalQuery(db: Db, scope: Scope) {
  const q = db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select([
      'signals.id as signal_id',
      'signals.device_id',
      'devices.name as device_name',
      'signals.key',
      'signals.name',
      'signals.unit',
      'signals.is_counter',
      'devices.plant_id',
      'plants.name as plant_name',
      'plants.time_zone',
    ]);
  return scope.all ? q : q.where('devices.plant_id', 'in', reachable.plants(db, scope));
}

const toSeriesSignal = (r: {
  signal_id: number;
  device_id: number;
  device_name: string;
  key: string;
  name: string;
  unit: string | null;
  is_counter: number;
  plant_id: number;
  plant_name: string;
  time_zone: string;
}): SeriesSignal => ({ ...r, is_counter: r.is_counter === 1 });

/** The signals of these ids that the scope reaches. */
export async function seriesSignals(db: Db, scope: Scope, ids: readonly number[]): Promise<SeriesSignal[]> {
  const rows = await signalQuery(db, scope).where('signals.id', 'in', ids).orderBy('signals.id').execute();
  return rows.map(toSeriesSignal);
}

/**
 * Raw points of the signals with ts in [from, to), per signal id, oldest first (a signal without points has
 * none). PostgreSQL answers one row per signal with its points as binary arrays, as rollupSeries does (a
 * day of 1-minute points of 50 signals is 72,000 rows otherwise); SQLite answers rows.
 */
export async function rawSeries(
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

/** What a series shows of each bucket (shared `telemetryQuery.agg`). */
export type RollupAgg = 'avg' | 'min' | 'max' | 'last' | 'sum';

/** A series' points: [bucket start (epoch ms), the aggregate's value or null (none, or not finite)]. */
export type SeriesPoints = [number, number | null][];

/** One signal of a rollup read: its id, the first bucket start it wants, and whether it is a counter. */
export interface RollupSignal {
  id: number;
  from: number;
  counter: boolean;
}

/**
 * A signal's points from rollupSeries' or rawSeries' PostgreSQL answer: n timestamps (int8, big-endian:
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
export async function rollupSeries(
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

/** True when the scope reaches the device / plant. */
export async function deviceReachable(db: Db, scope: Scope, id: number): Promise<boolean> {
  let q = db.selectFrom('devices').select('devices.id').where('devices.id', '=', id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return !!(await q.executeTakeFirst());
}

export async function plantOf(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('plants').select(['plants.id', 'plants.time_zone']).where('plants.id', '=', id);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

export async function deviceWithZone(db: Db, scope: Scope, id: number) {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.id', 'devices.plant_id', 'plants.time_zone'])
    .where('devices.id', '=', id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

/**
 * Latest values of the signals of a device or of a plant that the scope reaches (none when it does not: the
 * caller tells an empty owner from an unreachable one only when nothing comes back).
 */
export async function latestValues(db: Db, scope: Scope, filter: { device_id?: number; plant_id?: number }) {
  let q = db
    .selectFrom('telemetry_latest')
    .innerJoin('signals', 'signals.id', 'telemetry_latest.signal_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id as signal_id',
      'signals.device_id',
      'signals.key',
      'signals.unit',
      'telemetry_latest.ts',
      'telemetry_latest.value',
    ]);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined) q = q.where('devices.plant_id', '=', filter.plant_id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  // The driver's rows as they are: the service builds the answer's objects from them in one pass.
  return q.orderBy('signals.device_id').orderBy('signals.id').execute();
}

/**
 * Energy in kWh per day bucket in [from, to) of the energy counters that count for a plant (its inverters'
 * `total_energy` counters: a meter would count the same energy twice) or a device (its own), in one
 * query: the database sums the counters' daily deltas per day, converting Wh and MWh to kWh (any other
 * unit is taken as kWh), so a year of a plant is 365 rows instead of one per inverter and day. A delta
 * that is not a finite number (written before ingest bounds existed) is left out rather than turning the
 * day into ±Infinity.
 */
export async function dailyEnergyKwh(
  db: Db,
  filter: { device_id?: number; plant_id?: number },
  from: number,
  to: number,
): Promise<{ bucket: number; kwh: number }[]> {
  let q = db
    .selectFrom('telemetry_1d')
    .innerJoin('signals', 'signals.id', 'telemetry_1d.signal_id')
    .select((eb) => [
      'telemetry_1d.bucket',
      eb.fn
        .sum<number>(
          eb(
            eb.ref('telemetry_1d.delta'),
            '*',
            sql<number>`case lower(trim(${eb.ref('signals.unit')})) when 'wh' then 0.001 when 'mwh' then 1000 else 1 end`,
          ),
        )
        .as('kwh'),
    ])
    .where('signals.key', '=', 'total_energy')
    .where('signals.is_counter', '=', 1)
    .where('telemetry_1d.bucket', '>=', from)
    .where('telemetry_1d.bucket', '<', to)
    .where('telemetry_1d.delta', '>', -1e308)
    .where('telemetry_1d.delta', '<', 1e308);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined)
    q = q.where('signals.device_id', 'in', (eb) =>
      eb
        .selectFrom('devices')
        .select('devices.id')
        .where('devices.plant_id', '=', filter.plant_id!)
        .where('devices.type', '=', 'inverter'),
    );
  const rows = await q.groupBy('telemetry_1d.bucket').execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), kwh: Number(r.kwh) }));
}

/** Active plants the scope reaches, with their field's name, by name (then id). */
export async function catalogPlants(db: Db, scope: Scope) {
  let q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select(['plants.id', 'plants.name', 'fields.name as field_name', 'plants.time_zone'])
    .where('plants.is_active', '=', 1);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.orderBy('plants.name').orderBy('plants.id').execute();
}

/** Active devices of a plant, by name (then id). */
export async function catalogDevices(db: Db, plantId: number) {
  return db
    .selectFrom('devices')
    .select(['id', 'name', 'type', 'parent_device_id'])
    .where('plant_id', '=', plantId)
    .where('is_active', '=', 1)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Active signals of the active devices of a plant, by name (then id), in one query. */
export async function catalogSignals(db: Db, plantId: number) {
  const rows = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id',
      'signals.device_id',
      'signals.key',
      'signals.name',
      'signals.unit',
      'signals.is_counter',
    ])
    .where('devices.plant_id', '=', plantId)
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .orderBy('signals.name')
    .orderBy('signals.id')
    .execute();
  return rows.map((r) => ({ ...r, is_counter: r.is_counter === 1 }));
}
