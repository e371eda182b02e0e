/**
 * bench:query — read latency over the full-size telemetry history: BENCH_SIGNALS signals (500) on 10 plants
 * of 10 inverters, BENCH_DAYS (1,826: five years) of 1d and 1h rollups, BENCH_5M_DAYS (BENCH_DAYS) of 5m
 * rollups and BENCH_RAW_DAYS (90) of raw 1-minute points, written by bench/history-generator.ts inside the
 * database; plus one plant of 1,000 signals with latest values. Prints p50/p95/p99 of BENCH_RUNS calls (50,
 * after BENCH_WARMUP warm-up calls, 10) of four reads over HTTP (app.inject), the load average, the query
 * plans (BENCH_EXPLAIN=1) and the bytes per raw point and rollup row. Against PostgreSQL when DATABASE_URL is
 * set. BENCH_CALLS=1 also prints every call's time in the order of the calls (where the slow ones fall).
 *
 * The aims are on p95, and every call counts: none is dropped. Of 20 calls p95 (setup.ts pct) is the
 * slowest one, whatever befell it; `npm run bench` therefore takes 200 calls per figure. Each figure also
 * says how many of its calls a GC pause of this process fell into, and of which kind (docs/benchmarks.md,
 * "Query tails on PostgreSQL").
 *
 * Background work of the app (lease renewal, settings reload, alarm engine tick, retention) runs in this
 * process as on a single production node; it is left on: its queries are small and seconds apart.
 *
 * On PostgreSQL the bench does after generating what a live database would long since have done: VACUUM
 * ANALYZE of the generated tables (statistics and the visibility map, else autovacuum does it during the
 * first calls) and a CHECKPOINT (the bulk load fills max_wal_size and starts a checkpoint whose writes would
 * otherwise be spread over the calls that follow). On SQLite: ANALYZE and a TRUNCATE checkpoint of the WAL
 * the load left, which the server's checkpoint thread would otherwise copy during the calls.
 *
 * BENCH_CACHE=dir keeps the generated database (SQLite file under dir, or a PostgreSQL schema named after
 * the sizes) and reuses it on the next run with the same sizes: generation then takes no time at all.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { constants as gcKind, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { generateHistory, type HistorySignal } from './history-generator';
import { recordFigure } from './report';
import { benchAdminToken, dropSchema, pct, rssMiB, seedPlants } from './setup';

const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 500);
const DAYS = Number(process.env.BENCH_DAYS ?? 1_826);
const FIVE_MINUTE_DAYS = Math.min(DAYS, Number(process.env.BENCH_5M_DAYS ?? DAYS));
const RAW_DAYS = Math.min(DAYS, Number(process.env.BENCH_RAW_DAYS ?? 90));
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const CALLS = process.env.BENCH_CALLS === '1';
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const CACHE = process.env.BENCH_CACHE;
/** BENCH_SIZES=0 skips counting rows and bytes (minutes on a full-size database). */
const SIZES = process.env.BENCH_SIZES !== '0';
const DATABASE_URL = process.env.DATABASE_URL;
const DAY = 86_400_000;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const sizes = `s${SIGNALS}-d${DAYS}-f${FIVE_MINUTE_DAYS}-r${RAW_DAYS}`;
const dataDir = CACHE
  ? path.resolve(CACHE, `query-${sizes}`)
  : mkdtempSync(path.join(tmpdir(), 'solar-bench-'));
mkdirSync(dataDir, { recursive: true });
const cached = CACHE
  ? DATABASE_URL
    ? undefined // decided below, once connected
    : existsSync(path.join(dataDir, 'solar.db'))
  : false;
const config = loadConfig({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  JWT_SECRET: randomBytes(32).toString('hex'),
  DEMO: 'false',
  SIMULATOR: 'false',
  MODBUS_POLLER: 'false',
  // Ten years: the retention job must not delete the generated raw points while the bench runs.
  TELEMETRY_RAW_RETENTION_DAYS: '3650',
  ...(DATABASE_URL
    ? {
        DATABASE_URL,
        DATABASE_SCHEMA: CACHE
          ? `bench_query_${sizes.replace(/-/g, '_')}`
          : `bench_${randomBytes(4).toString('hex')}`,
      }
    : {}),
});
const { app, ctx } = await buildApp(config);
await app.ready();
const { db, dialect } = ctx;
console.log(`${dialect}, ${sizes}, load average ${load()} (1/5/15 min), ${new Date().toISOString()}`);

const figureParams = {
  signals: SIGNALS,
  days: DAYS,
  five_minute_days: FIVE_MINUTE_DAYS,
  raw_days: RAW_DAYS,
  runs: RUNS,
};

const today = Math.floor(Date.now() / DAY) * DAY;
interface Layout {
  today: number;
  plants: Awaited<ReturnType<typeof seedPlants>>;
  latestPlant: number;
}
let layout: Layout;
const reuse =
  cached ??
  !!(await db
    .selectFrom('plants')
    .select('id')
    .executeTakeFirst()
    .catch(() => undefined));
if (reuse) {
  // The plants and signals seedPlants made, read back in the same order.
  const plants = await db.selectFrom('plants').select(['id', 'name']).orderBy('id').execute();
  const signals = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'signals.key', 'devices.plant_id'])
    .orderBy('signals.id')
    .execute();
  const meta = await db
    .selectFrom('telemetry_latest')
    .select((eb) => eb.fn.max('ts').as('ts'))
    .executeTakeFirstOrThrow();
  layout = {
    today: Number(meta.ts) + 60_000,
    plants: plants.slice(0, -1).map((p) => {
      const own = signals.filter((s) => s.plant_id === p.id);
      return {
        plantId: p.id,
        key: '',
        counters: own.filter((s) => s.key === 'total_energy').map((s) => s.id),
        powers: own.filter((s) => s.key === 'ac_power').map((s) => s.id),
        signals: own.map((s) => s.id),
      };
    }),
    latestPlant: plants.at(-1)!.id,
  };
  console.log(`reusing the generated history in ${DATABASE_URL ? config.database.dialect : dataDir}`);
} else {
  const per = Math.max(2, Math.round(SIGNALS / 100));
  const plants = await seedPlants(db, 10, 10, per);
  // The plant whose 1,000 latest values one `latest` call answers: 100 inverters of 10 signals.
  const [big] = await seedPlants(db, 1, 100, 10);
  const t0 = performance.now();
  const zones = new Map(
    (await db.selectFrom('plants').select(['id', 'time_zone']).execute()).map((p) => [p.id, p.time_zone]),
  );
  const history: HistorySignal[] = plants.flatMap((p) =>
    p.signals.map((id) => ({
      signal_id: id,
      counter: p.counters.includes(id),
      time_zone: zones.get(p.plantId)!,
    })),
  );
  const counts = await generateHistory(db, dialect, history, {
    end: today,
    rollupDays: DAYS,
    fiveMinuteDays: FIVE_MINUTE_DAYS,
    rawDays: RAW_DAYS,
    parallel: 2,
    log: (line) => console.log(line),
  });
  const bigLatest = big!.signals.map((id, i) => ({ signal_id: id, ts: today - 60_000, value: i }));
  await db.insertInto('telemetry_latest').values(bigLatest).execute();
  if (dialect === 'postgres') {
    // A live database has statistics and a visibility map (autovacuum); a just-bulk-loaded one not yet.
    for (const table of ['telemetry_raw', 'telemetry_5m', 'telemetry_1h', 'telemetry_1d', 'telemetry_latest'])
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    // The load's checkpoint, done now rather than spread over the measured calls (it needs superuser or
    // pg_checkpoint; a role without either measures with the checkpoint running, and says so).
    const c = performance.now();
    await sql`checkpoint`
      .execute(db)
      .then(() =>
        console.log(`checkpoint after generating: ${((performance.now() - c) / 1000).toFixed(1)} s`),
      )
      .catch((error: unknown) => console.log(`no checkpoint after generating (${String(error)})`));
  } else {
    await sql`analyze`.execute(db);
    // The server's checkpoints run on a thread of their own (db/wal-checkpointer.ts), so the bulk load leaves
    // gigabytes of WAL that the thread would copy during the measured calls; a live database's WAL holds
    // seconds of writes. Checkpoint it whole now (the load's share, as on PostgreSQL above).
    const c = performance.now();
    const [r] = await sql<{
      busy: number;
      log: number;
      checkpointed: number;
    }>`pragma wal_checkpoint(truncate)`
      .execute(db)
      .then((res) => res.rows);
    console.log(
      `checkpoint after generating: ${((performance.now() - c) / 1000).toFixed(1)} s (${r?.checkpointed ?? 0} of ${r?.log ?? 0} WAL pages, busy ${r?.busy ?? '?'})`,
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const rows = counts.raw + counts['5m'] + counts['1h'] + counts['1d'];
  console.log(
    `generated ${counts.raw.toLocaleString('en')} raw points, ${counts['5m'].toLocaleString('en')} 5m + ${counts['1h'].toLocaleString('en')} 1h + ${counts['1d'].toLocaleString('en')} 1d rollup rows in ${seconds.toFixed(0)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s), RSS ${rssMiB()} MiB, load average ${load()}`,
  );
  recordFigure({
    bench: 'query',
    database: dialect,
    name: 'history_generation_s',
    value: Math.round(seconds),
    unit: 's',
    params: { ...figureParams, rows },
  });
  layout = { today, plants, latestPlant: big!.plantId };
}

// A reused database still has the previous run's caller.
await ctx.db.deleteFrom('users').where('username', '=', 'bench').execute();
await ctx.db.deleteFrom('roles').where('name', '=', 'admin-bench').execute();
const token = await benchAdminToken(ctx);
const { plants } = layout;
const end = layout.today;

/** This process's GC pauses (start and duration, performance.now() time): which calls one fell into. */
const gcPauses: PerformanceEntry[] = [];
/** The kinds of pause: minor is a scavenge of the young generation, major a mark-compact of the heap. */
const GC_KINDS: Record<number, string> = {
  [gcKind.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [gcKind.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [gcKind.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [gcKind.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const gcObserver = new PerformanceObserver((list) => gcPauses.push(...list.getEntries()));
gcObserver.observe({ entryTypes: ['gc'] });

/** p50/p95/p99 of RUNS calls of `url`, recorded as `<name>_p50`/`_p95`/`_p99`; the aim is on p95. */
async function measure(label: string, name: string, aimMs: number, url: () => string) {
  for (let i = 0; i < WARMUP; i++)
    await app.inject({ method: 'GET', url: url(), headers: { authorization: `Bearer ${token}` } });
  const times: number[] = [];
  const cpu: number[] = [];
  const spans: [number, number][] = [];
  gcPauses.length = 0;
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const c = process.cpuUsage();
    const s = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: url(),
      headers: { authorization: `Bearer ${token}` },
    });
    const e = performance.now();
    times.push(e - s);
    spans.push([s, e]);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
    bytes = res.rawPayload.length;
  }
  // The observer hears of a pause after it: let it catch up before the calls are matched with the pauses.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const pauses = gcPauses.filter((g) => g.startTime >= spans[0]![0] && g.startTime < spans.at(-1)![1]);
  const hit = spans.filter(([s, e]) => pauses.some((g) => g.startTime < e && g.startTime + g.duration > s));
  const kinds = new Map<string, [number, number, number]>();
  for (const g of pauses) {
    const kind = GC_KINDS[(g as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
    const [n, ms, longest] = kinds.get(kind) ?? [0, 0, 0];
    kinds.set(kind, [n + 1, ms + g.duration, Math.max(longest, g.duration)]);
  }
  const gcLine = `GC: ${[...kinds].map(([kind, [n, ms, longest]]) => `${n} ${kind} (${ms.toFixed(0)} ms, longest ${longest.toFixed(1)})`).join(', ') || 'none'}; ${hit.length} of ${RUNS} calls had a pause`;
  if (CALLS) console.log(`  ${label}, ms in call order: ${times.map((t) => t.toFixed(1)).join(' ')}`);
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  // CPU time of this process per call: on a loaded machine it moves far less than the wall time (SQLite runs
  // in this process, so it includes the database's work; a PostgreSQL backend's work is not in it).
  console.log(
    `${label}: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; CPU p50 ${pct(cpu, 50).toFixed(1)} ms, p95 ${pct(cpu, 95).toFixed(1)} ms (${RUNS} runs, ${(bytes / 1024).toFixed(0)} KiB answer, load average ${load()})\n  ${gcLine}`,
  );
  const round = (ms: number) => Number(ms.toFixed(2));
  const base = { bench: 'query', database: dialect, unit: 'ms', params: { ...figureParams, bytes } } as const;
  recordFigure({ ...base, name: `${name}_p50`, value: round(pct(times, 50)) });
  recordFigure({
    ...base,
    name: `${name}_p95`,
    value: round(pct(times, 95)),
    aim: { op: '<', value: aimMs },
  });
  recordFigure({ ...base, name: `${name}_p99`, value: round(pct(times, 99)) });
  recordFigure({ ...base, name: `${name}_cpu_p95`, value: round(pct(cpu, 95)) });
}

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let k = 0;
await measure(
  'a year of daily energy for a plant',
  'daily_energy_year',
  20,
  () =>
    `/api/telemetry/energy?plant_id=${plants[k++ % plants.length]!.plantId}&period=day&from=${date(end - 365 * DAY)}&to=${date(end - DAY)}`,
);
const powers = plants.flatMap((p) => p.powers);
const fifty = powers.slice(0, 50);
await measure(
  `a day of 5-minute power for ${fifty.length} inverters`,
  'power_5m_day_50_inverters',
  30,
  () => `/api/telemetry?signal_ids=${fifty.join(',')}&from=${end - 2 * DAY}&to=${end - DAY}&resolution=5m`,
);
const twenty = plants.flatMap((p) => p.signals).slice(0, 20);
await measure(
  'a month of hourly data for 20 signals',
  'hourly_month_20_signals',
  30,
  () => `/api/telemetry?signal_ids=${twenty.join(',')}&from=${end - 31 * DAY}&to=${end - DAY}&resolution=1h`,
);
await measure(
  'latest for 1,000 signals (one plant)',
  'latest_1000_signals',
  10,
  () => `/api/telemetry/latest?plant_id=${layout.latestPlant}`,
);

if (EXPLAIN) {
  const plant = plants[0]!;
  /** rollupSeries' statement for avg (telemetry.repository.ts): rows on SQLite, two binary arrays per signal on PostgreSQL. */
  const rollupStatement = (table: string, ids: number[], from: number, to: number) =>
    dialect === 'postgres'
      ? `select s.id as signal_id, (select string_agg(int8send(v.bucket), ''::bytea) || string_agg(float8send(coalesce(v.value, 'NaN')), ''::bytea) from (select r.bucket, r.sum / r.count as value from ${table} r where r.signal_id = s.id and r.bucket >= s.from_bucket and r.bucket < ${to} order by r.bucket) v) as points from unnest('{${ids.join(',')}}'::int[], '{${ids.map(() => from).join(',')}}'::int8[], '{${ids.map(() => 'false').join(',')}}'::bool[]) as s(id, from_bucket, counter)`
      : `select signal_id, bucket, sum / count as value from ${table} where signal_id in (${ids.join(',')}) and bucket >= ${from} and bucket < ${to} order by signal_id, bucket`;
  const plans: [string, string][] = [
    [
      'daily energy of a plant, a year (dailyEnergyKwh)',
      `select d.bucket, sum(d.delta * case lower(trim(s.unit)) when 'wh' then 0.001 when 'mwh' then 1000 else 1 end) as kwh from telemetry_1d d join signals s on s.id = d.signal_id where s.key = 'total_energy' and s.is_counter = 1 and d.bucket >= ${end - 366 * DAY} and d.bucket < ${end} and d.delta > -1e308 and d.delta < 1e308 and s.device_id in (select id from devices where plant_id = ${plant.plantId} and type = 'inverter') group by d.bucket`,
    ],
    [
      '5m of 50 signals, a day (rollupSeries)',
      rollupStatement('telemetry_5m', fifty, end - 2 * DAY, end - DAY),
    ],
    [
      '1h of 20 signals, a month (rollupSeries)',
      rollupStatement('telemetry_1h', twenty, end - 31 * DAY, end - DAY),
    ],
    [
      'latest of a plant (latestValues)',
      `select s.id, s.device_id, s.key, s.unit, l.ts, l.value from telemetry_latest l join signals s on s.id = l.signal_id join devices d on d.id = s.device_id where d.plant_id = ${layout.latestPlant} order by s.device_id, s.id`,
    ],
    [
      'raw of one signal, an hour',
      `select ts, value from telemetry_raw where signal_id = ${plant.signals[1]} and ts >= ${end - 2 * DAY} and ts < ${end - 2 * DAY + 3_600_000} order by ts`,
    ],
  ];
  for (const [label, text] of plans) {
    const explain =
      dialect === 'postgres' ? `explain (analyze, buffers, costs off) ${text}` : `explain query plan ${text}`;
    const { rows } = await sql.raw<Record<string, unknown>>(explain).execute(db);
    console.log(
      `-- ${label}\n${rows.map((r) => (dialect === 'postgres' ? String(r['QUERY PLAN']) : String(r.detail))).join('\n')}`,
    );
  }
}

// Bytes per row of each table: dbstat on SQLite (pages of the table and its indexes), the relation with its
// indexes and TOAST on PostgreSQL (every partition of telemetry_raw).
const tables = ['telemetry_raw', 'telemetry_5m', 'telemetry_1h', 'telemetry_1d'] as const;
for (const table of SIZES ? tables : []) {
  const n = Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  let bytes: number;
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      bytes: number;
    }>`select sum(pgsize) as bytes from dbstat where name = ${table} or name in (select name from sqlite_master where tbl_name = ${table})`.execute(
      db,
    );
    bytes = Number(rows[0]!.bytes);
  } else {
    const { rows } = await sql<{
      bytes: string;
    }>`select coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree(${table}::regclass)), pg_total_relation_size(${table}::regclass))::text as bytes`.execute(
      db,
    );
    bytes = Number(rows[0]!.bytes);
  }
  console.log(
    `${table}: ${n.toLocaleString('en')} rows, ${(bytes / 2 ** 20).toFixed(0)} MiB, ${n ? (bytes / n).toFixed(1) : '-'} bytes per row`,
  );
  if (n)
    recordFigure({
      bench: 'query',
      database: dialect,
      name: `${table}_bytes_per_row`,
      value: Number((bytes / n).toFixed(1)),
      unit: 'bytes',
      params: { ...figureParams, rows: n },
    });
}
if (SIZES && dialect === 'sqlite') {
  const file = path.join(dataDir, 'solar.db');
  console.log(`database file ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`);
}
gcObserver.disconnect();
await app.close();
if (!CACHE) {
  // The data directory is made on PostgreSQL too, and was left behind there.
  rmSync(dataDir, { recursive: true, force: true });
  if (config.database.dialect === 'postgres') await dropSchema(config.database.url, config.database.schema);
}
