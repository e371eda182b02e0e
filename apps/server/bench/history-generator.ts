/**
 * The full-size telemetry history for bench:query, written by the database itself: years of 5m/1h/1d rollups
 * and months of 1-minute raw points, with no row crossing the client connection.
 *
 * Every signal follows the same synthetic day (a clipped sine of a 100 kW inverter between 03:00 and
 * 15:00 UTC; a counter integrates it), so one UTC day of values is a template: small template tables hold a
 * day's minutes, its 288 five-minute and 24 hourly aggregates, and the plant-local daily rows of each time
 * zone. Each signal's rows are then one INSERT … SELECT from a cross join of a day-number table with a
 * template, in primary-key order (appends to the B-tree, no page splits), one statement (one transaction)
 * per signal and table. A counter's values grow by the day's energy every day, so that its rollups agree
 * with its raw points: value at minute m of day d = d × (energy of a day) + (energy of day d up to m).
 * The generated rows are what the ingest path would store for the same points (aggregate.ts semantics:
 * `sum` of the values, a counter's `delta` the sum of its increases).
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../src/db/database';
import { dayBucket } from '../src/telemetry-store/buckets';
import type { RollupRow } from '../src/telemetry-store/telemetry-store.repository';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** kW of a 100 kW inverter at `ms`: a clipped sine between 06:00 and 18:00 at UTC+3. */
export const powerAt = (ms: number) =>
  Math.max(0, Math.sin(((((ms + 3 * 3_600_000) % DAY) / DAY) * 24 - 6) * (Math.PI / 12)) * 100);

export interface HistorySignal {
  signal_id: number;
  counter: boolean;
  time_zone: string;
}

export interface HistoryOptions {
  /** UTC midnight; the history ends just before it. */
  end: number;
  /** Days of 1d and 1h rollups (5 years: 1,826). */
  rollupDays: number;
  /** Days of 5m rollups (default rollupDays). */
  fiveMinuteDays: number;
  /** Days of raw 1-minute points (90). */
  rawDays: number;
  /** Statements run at once on PostgreSQL (one backend each); SQLite has one writer. */
  parallel: number;
  log: (line: string) => void;
}

export interface HistoryCounts {
  raw: number;
  '5m': number;
  '1h': number;
  '1d': number;
}

/** The per-minute template of one UTC day: power, and a counter's energy within the day up to the minute. */
function minuteTemplate() {
  const power: number[] = [];
  const energy: number[] = [];
  let e = 0;
  for (let m = 0; m < 1440; m++) {
    const p = powerAt(m * MINUTE);
    e += p / 60;
    power.push(p);
    energy.push(e);
  }
  return { power, energy, dayEnergy: e };
}

type Agg = Omit<RollupRow, 'signal_id'>;

/** Aggregates minutes [from, to) of `values` (epoch offsets from `t0`), `increase` of each minute for delta. */
function aggregate(
  values: (m: number) => number,
  increase: ((m: number) => number) | null,
  ms: (m: number) => number,
  from: number,
  to: number,
): Agg {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let delta = 0;
  for (let m = from; m < to; m++) {
    const v = values(m);
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    if (increase) delta += increase(m);
  }
  return {
    bucket: ms(from),
    min,
    max,
    sum,
    count: to - from,
    first: values(from),
    first_ts: ms(from),
    last: values(to - 1),
    last_ts: ms(to - 1),
    delta: increase ? delta : null,
    rejected_delta: increase ? 0 : null,
  };
}

async function run(db: Db, query: ReturnType<typeof sql>) {
  await query.execute(db);
}

/** Runs the tasks `parallel` at a time. */
async function inParallel(tasks: (() => Promise<void>)[], parallel: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, parallel) }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}

/** Writes the history of `signals`; answers the rows written per table. */
export async function generateHistory(
  db: Db,
  dialect: Dialect,
  signals: readonly HistorySignal[],
  o: HistoryOptions,
): Promise<HistoryCounts> {
  const start = o.end - o.rollupDays * DAY;
  const { power, energy, dayEnergy } = minuteTemplate();
  const parallel = dialect === 'postgres' ? o.parallel : 1;
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  // Day numbers 0 … rollupDays-1 and a day's templates. Regular tables (dropped at the end): PostgreSQL's
  // pool hands each statement any connection, so a temporary table would not be seen by the next one.
  await run(db, sql`drop table if exists bench_day`);
  await run(db, sql`drop table if exists bench_minute`);
  await run(db, sql`drop table if exists bench_tpl`);
  await run(db, sql`drop table if exists bench_tpl_1d`);
  await run(db, sql`create table bench_day (d integer primary key)`);
  await run(
    db,
    sql`create table bench_minute (m integer primary key, p ${sql.raw(real)} not null, e ${sql.raw(real)} not null)`,
  );
  await run(
    db,
    sql`create table bench_tpl (res varchar(2) not null, kind integer not null, off bigint not null, cnt integer not null, mn ${sql.raw(real)} not null, mx ${sql.raw(real)} not null, sm ${sql.raw(real)} not null, fi ${sql.raw(real)} not null, la ${sql.raw(real)} not null, last_off bigint not null, delta ${sql.raw(real)}, primary key (res, kind, off))`,
  );
  await run(
    db,
    sql`create table bench_tpl_1d (cls varchar(64) not null, bucket bigint not null, cnt integer not null, mn ${sql.raw(real)} not null, mx ${sql.raw(real)} not null, sm ${sql.raw(real)} not null, fi ${sql.raw(real)} not null, first_ts bigint not null, la ${sql.raw(real)} not null, last_ts bigint not null, delta ${sql.raw(real)}, primary key (cls, bucket))`,
  );
  const insertRows = async (table: string, columns: string[], rows: unknown[][]) => {
    const size = Math.floor(30_000 / columns.length);
    for (let i = 0; i < rows.length; i += size) {
      const part = rows.slice(i, i + size);
      await run(
        db,
        sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(part.map((r) => sql`(${sql.join(r)})`))}`,
      );
    }
  };
  await insertRows(
    'bench_day',
    ['d'],
    Array.from({ length: o.rollupDays }, (_, d) => [d]),
  );
  await insertRows(
    'bench_minute',
    ['m', 'p', 'e'],
    power.map((p, m) => [m, p, energy[m]!]),
  );

  // Five-minute and hourly templates of a UTC day, for power (kind 0) and a counter (kind 1, on day 0).
  const tpl: unknown[][] = [];
  for (const [res, width] of [
    ['5m', 5],
    ['1h', 60],
  ] as const) {
    for (let k = 0; k < 1440; k += width) {
      const p = aggregate(
        (m) => power[m]!,
        null,
        (m) => m * MINUTE,
        k,
        k + width,
      );
      const e = aggregate(
        (m) => energy[m]!,
        (m) => power[m]! / 60,
        (m) => m * MINUTE,
        k,
        k + width,
      );
      for (const [kind, a] of [
        [0, p],
        [1, e],
      ] as const)
        tpl.push([res, kind, a.bucket, a.count, a.min, a.max, a.sum, a.first, a.last, a.last_ts, a.delta]);
    }
  }
  await insertRows(
    'bench_tpl',
    ['res', 'kind', 'off', 'cnt', 'mn', 'mx', 'sm', 'fi', 'la', 'last_off', 'delta'],
    tpl,
  );

  // Plant-local days per time zone: computed minute by minute over the whole span (DST days are 23/25 h).
  const zones = [...new Set(signals.map((s) => s.time_zone))];
  const classes: unknown[][] = [];
  const totalMinutes = o.rollupDays * 1440;
  const value = (kind: number) => (i: number) =>
    kind ? Math.floor(i / 1440) * dayEnergy + energy[i % 1440]! : power[i % 1440]!;
  for (const zone of zones) {
    // Local midnights around the span, then each local day's minutes clipped to [start, end).
    const midnights = new Set<number>();
    for (let k = -1; k <= o.rollupDays + 1; k++) midnights.add(dayBucket(start + k * DAY + DAY / 2, zone));
    const sorted = [...midnights].sort((a, b) => a - b);
    for (let j = 0; j + 1 < sorted.length; j++) {
      const from = Math.max(0, Math.ceil((sorted[j]! - start) / MINUTE));
      const to = Math.min(totalMinutes, Math.ceil((sorted[j + 1]! - start) / MINUTE));
      if (to <= from) continue;
      for (const kind of [0, 1]) {
        const a = aggregate(
          value(kind),
          kind ? (m) => power[m % 1440]! / 60 : null,
          (m) => start + m * MINUTE,
          from,
          to,
        );
        classes.push([
          `${zone}|${kind}`,
          sorted[j]!,
          a.count,
          a.min,
          a.max,
          a.sum,
          a.first,
          a.first_ts,
          a.last,
          a.last_ts,
          a.delta,
        ]);
      }
    }
  }
  await insertRows(
    'bench_tpl_1d',
    ['cls', 'bucket', 'cnt', 'mn', 'mx', 'sm', 'fi', 'first_ts', 'la', 'last_ts', 'delta'],
    classes,
  );

  const counts: HistoryCounts = { raw: 0, '5m': 0, '1h': 0, '1d': 0 };
  const t0 = performance.now();
  const done = (what: string, i: number) => {
    if ((i + 1) % 50 === 0 || i + 1 === signals.length)
      o.log(
        `  ${what}: ${i + 1}/${signals.length} signals, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
  };
  const big = (v: number) => (dialect === 'postgres' ? sql`cast(${v} as bigint)` : sql`${v}`);
  const dbl = (v: number) => (dialect === 'postgres' ? sql`cast(${v} as double precision)` : sql`${v}`);

  const rollups = (res: '5m' | '1h', days: number) =>
    signals.map((s, i) => async () => {
      const kind = s.counter ? 1 : 0;
      // The counter's level at the start of day d: d days of energy (0 for power).
      const base = sql`(d.d * ${dbl(s.counter ? dayEnergy : 0)})`;
      await run(
        db,
        sql`insert into ${sql.table(`telemetry_${res}`)} (signal_id, bucket, min, max, sum, count, first, first_ts, last, last_ts, delta)
          select ${s.signal_id}, ${big(start)} + d.d * ${big(DAY)} + t.off, ${base} + t.mn, ${base} + t.mx,
            t.cnt * ${base} + t.sm, t.cnt, ${base} + t.fi, ${big(start)} + d.d * ${big(DAY)} + t.off, ${base} + t.la,
            ${big(start)} + d.d * ${big(DAY)} + t.last_off, t.delta
          from bench_day d cross join bench_tpl t
          where t.res = ${res} and t.kind = ${kind} and d.d >= ${o.rollupDays - days}
          order by d.d, t.off`,
      );
      counts[res] += days * (res === '5m' ? 288 : 24);
      done(res, i);
    });
  const daily = signals.map((s, i) => async () => {
    const rows =
      await sql`insert into telemetry_1d (signal_id, bucket, min, max, sum, count, first, first_ts, last, last_ts, delta)
        select ${s.signal_id}, bucket, mn, mx, sm, cnt, fi, first_ts, la, last_ts, delta from bench_tpl_1d
        where cls = ${`${s.time_zone}|${s.counter ? 1 : 0}`} order by bucket`.execute(db);
    counts['1d'] += Number(rows.numAffectedRows ?? 0);
    done('1d', i);
  });
  const rawFirstDay = o.rollupDays - o.rawDays;
  const raw = signals.map((s, i) => async () => {
    const v = s.counter ? sql`d.d * ${dbl(dayEnergy)} + m.e` : sql`m.p`;
    await run(
      db,
      sql`insert into telemetry_raw (signal_id, ts, value)
        select ${s.signal_id}, ${big(start)} + d.d * ${big(DAY)} + m.m * ${big(MINUTE)}, ${v}
        from bench_day d cross join bench_minute m where d.d >= ${rawFirstDay}
        order by d.d, m.m`,
    );
    counts.raw += o.rawDays * 1440;
    done('raw', i);
  });
  await inParallel(daily, parallel);
  await inParallel(rollups('1h', o.rollupDays), parallel);
  await inParallel(rollups('5m', o.fiveMinuteDays), parallel);
  await inParallel(raw, parallel);

  // The latest value: the last raw minute of each signal.
  const lastMinute = o.end - MINUTE;
  const latest = signals.map((s) => ({
    signal_id: s.signal_id,
    ts: lastMinute,
    value: s.counter ? (o.rollupDays - 1) * dayEnergy + energy[1439]! : power[1439]!,
  }));
  for (let i = 0; i < latest.length; i += 5_000)
    await db
      .insertInto('telemetry_latest')
      .values(latest.slice(i, i + 5_000))
      .execute();

  for (const table of ['bench_day', 'bench_minute', 'bench_tpl', 'bench_tpl_1d'])
    await run(db, sql`drop table ${sql.table(table)}`);
  return counts;
}
