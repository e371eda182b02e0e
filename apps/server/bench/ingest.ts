/**
 * bench:ingest — POST /api/telemetry throughput over a real port (10,000-point batches, plant keys) into
 * SQLite and, when DATABASE_URL is set, PostgreSQL; and in the same run the bare reference: the same rows,
 * in the same order and 10,000-row transactions, through one prepared better-sqlite3 insert into the
 * migrated telemetry_raw table of a fresh database opened with the server's pragmas. Prints both and the
 * ratio, by the wall clock and per CPU second of the process (the server's own process for HTTP): on a
 * shared machine the wall-clock ratio moves with the load, the CPU one much less. Records them (report.ts).
 * Asserts nothing.
 *
 * The load comes from CLIENTS forked processes (ingest-client.ts) that build their JSON bodies before the
 * clock starts: the server's process only serves.
 *   BENCH_BATCHES (300: batches in all)  CLIENTS (2)  BENCH_SIGNALS (1000: signals over 10 plants)
 *   BENCH_BARE (1: also run the bare loop)  BENCH_HTTP_SQLITE (1: also run HTTP into SQLite)
 *   BENCH_REPEAT (3): HTTP into SQLite and the bare loop run this many times, one after the other; the
 *     figures recorded are the medians, each run's in the series (one run of each moves by ±5 %)
 *   BENCH_PG_URL or DATABASE_URL (unset: no PostgreSQL run)
 *   BENCH_MEMORY_SECONDS (BENCH_SECONDS, else 30; 0 skips): then a timed run of that length on each database,
 *     RSS and heap sampled every 10 s and recorded as a series with its growth (600 for the ten-minute
 *     flat-memory check; the clients build each body just before posting it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { ClientResult, ClientTask } from './ingest-client';
import { batchOf, type BenchRow } from './ingest-batches';
import type { AppContext } from '../src/context';
import { recordFigure } from './report';
import { benchApp, pct, rssMiB, seedPlants } from './setup';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 300);
const CLIENTS = Number(process.env.CLIENTS ?? 2);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 1000);
const BARE = process.env.BENCH_BARE !== '0';
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const HTTP_SQLITE = process.env.BENCH_HTTP_SQLITE !== '0';
const PG_URL = process.env.BENCH_PG_URL || process.env.DATABASE_URL || undefined;
const MEMORY_SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? process.env.BENCH_SECONDS ?? 30);
const MEMORY_EVERY_MS = 10_000;
const BATCH = 10_000;
const PLANTS = 10;
const PER_PLANT = Math.max(2, Math.round(SIGNALS / PLANTS));
const STEPS = Math.max(1, Math.floor(BATCH / PER_PLANT));
/** 60 days back: inside raw retention, as a gateway catching up after an outage sends it. */
const START_MS = Date.now() - 60 * 86_400_000;
const params = {
  batches: BATCHES,
  clients: CLIENTS,
  batch_points: PER_PLANT * STEPS,
  signals: PER_PLANT * PLANTS,
};
const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
const load = () => loadavg()[0]!.toFixed(2);

function forkClient(): ChildProcess {
  return fork(fileURLToPath(new URL('./ingest-client.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
}

/** One RSS/heap sample of the server's process, `t_s` seconds into a timed run. */
interface MemorySample {
  t_s: number;
  rss_mib: number;
  heap_mib: number;
}
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * HTTP ingest into one database: BATCHES pre-built batches, or with `timedSeconds` a run of that length
 * whose memory is sampled every 10 s.
 */
async function runHttp(label: 'sqlite' | 'postgres', databaseUrl?: string, timedSeconds?: number) {
  const { app, ctx, config, dispose } = await benchApp(databaseUrl);
  const wal = walWatch(config.database.dialect === 'sqlite' ? config.database.file : undefined, ctx);
  // 10 plants × 10 inverters × SIGNALS/100 signals: a plant key covers its share of a batch.
  const plants = await seedPlants(ctx.db, PLANTS, 10, Math.max(1, Math.round(PER_PLANT / 10)));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const clients = Array.from({ length: CLIENTS }, forkClient);
  const ready = clients.map((c) => new Promise<void>((resolve) => c.once('message', () => resolve())));
  clients.forEach((c, i) =>
    c.send({
      address,
      plants: plants.map((p) => ({ key: p.key, signals: p.signals })),
      startMs: START_MS,
      steps: STEPS,
      batches: timedSeconds
        ? []
        : Array.from({ length: BATCHES }, (_, n) => n).filter((n) => n % CLIENTS === i),
      ...(timedSeconds ? { timed: { seconds: timedSeconds, first: i, stride: CLIENTS } } : {}),
    } satisfies ClientTask),
  );
  await Promise.all(ready);
  const rssStart = Number(rssMiB());
  let rssMax = rssStart;
  const done = clients.map(
    (c) =>
      new Promise<ClientResult>((resolve) =>
        c.once('message', (m: { result: ClientResult }) => resolve(m.result)),
      ),
  );
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const series: MemorySample[] = [];
  const sampler = setInterval(
    () => {
      const { rss, heapUsed } = process.memoryUsage();
      rssMax = Math.max(rssMax, mib(rss));
      const t_s = Math.round((performance.now() - t0) / 1000);
      if (timedSeconds) series.push({ t_s, rss_mib: mib(rss), heap_mib: mib(heapUsed) });
      console.log(`[${label}] ${t_s} s: RSS ${mib(rss)} MiB, heap ${mib(heapUsed)} MiB`);
    },
    timedSeconds ? MEMORY_EVERY_MS : 5_000,
  );
  for (const c of clients) c.send({ type: 'go' });
  const results = await Promise.all(done);
  const elapsedS = (performance.now() - t0) / 1000;
  const cpuS = cpuSeconds(process.cpuUsage(cpu0));
  const loopBusy = performance.eventLoopUtilization(elu0).utilization;
  clearInterval(sampler);
  const points = results.reduce((a, r) => a + r.points, 0);
  const errors = results.reduce((a, r) => a + r.errors, 0);
  const latencies = results.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  const rate = points / elapsedS;
  const cpuRate = points / cpuS;
  const rssEnd = Number(rssMiB());
  console.log(
    `[${label}] HTTP ingest: ${points} points in ${elapsedS.toFixed(1)} s = ${rate.toFixed(0)} points/s; ` +
      `${latencies.length} batches, p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms; ` +
      `errors ${errors}${errors ? ` (${results.find((r) => r.firstError)?.firstError})` : ''}; ` +
      `RSS ${rssStart} → max ${rssMax} → ${rssEnd} MiB; load ${load()}`,
  );
  console.log(
    `[${label}] server process CPU ${cpuS.toFixed(1)} s = ${cpuRate.toFixed(0)} points per CPU second; ` +
      `event loop busy ${(100 * loopBusy).toFixed(0)} % of the run`,
  );
  const walSummary = await wal.stop();
  if (walSummary) console.log(`[${label}] ${walSummary}`);
  if (timedSeconds) recordMemory(label, timedSeconds, rate, series);
  await app.close();
  await dispose();
  return {
    rate,
    cpuRate,
    p50: pct(latencies, 50),
    plants: plants.map((p) => p.signals),
  };
}

/**
 * The SQLite WAL file's size, read every second, and the catch-ups of db/wal-checkpointer.ts: sustained
 * ingest is what grew the WAL without bound before the main connection caught the checkpoints up.
 */
function walWatch(file: string | undefined, ctx: AppContext) {
  let largest = 0;
  const read = () => {
    try {
      largest = Math.max(largest, statSync(`${file}-wal`).size);
    } catch {
      // Not there yet (or gone): nothing to read.
    }
  };
  const timer = file ? setInterval(read, 1_000) : undefined;
  return {
    stop: async () => {
      clearInterval(timer);
      if (!file) return undefined;
      read();
      const figure = async (name: string) =>
        Number((await ctx.metrics.registry.getSingleMetricAsString(name)).match(/^\w+ (\S+)$/m)?.[1] ?? NaN);
      const catchUps = await figure('solar_sqlite_wal_catch_ups');
      const longest = await figure('solar_sqlite_wal_catch_up_longest_seconds');
      return `WAL file at most ${mib(largest)} MiB (read every second); ${catchUps} catch-ups, the longest ${(longest * 1000).toFixed(0)} ms`;
    },
  };
}

type HttpRun = Awaited<ReturnType<typeof runHttp>>;

/** The figures of HTTP runs into one database: the medians, and with several runs each one in the series. */
function recordHttp(label: 'sqlite' | 'postgres', runs: HttpRun[]) {
  const series =
    runs.length > 1 ? runs.map((r, i) => ({ run: i + 1, points_per_s: Math.round(r.rate) })) : undefined;
  const figure = (name: string, value: number, unit: string, aim?: { op: '>='; value: number }) =>
    recordFigure({
      bench: 'ingest',
      database: label,
      name,
      value,
      unit,
      params,
      ...(aim ? { aim } : {}),
      ...(series ? { series } : {}),
    });
  figure(
    `http_${label}_points_per_s`,
    Math.round(median(runs.map((r) => r.rate))),
    'points/s',
    label === 'postgres' ? { op: '>=', value: 150_000 } : undefined,
  );
  figure(`http_${label}_batch_p50`, median(runs.map((r) => r.p50)), 'ms');
  figure(`http_${label}_points_per_cpu_s`, Math.round(median(runs.map((r) => r.cpuRate))), 'points/CPU s');
}

/**
 * The memory series of a timed run, and its growth: the median RSS of the second half of the samples less
 * that of the first half, the first sample (warm-up) left out. Flat memory means a growth near zero.
 */
function recordMemory(label: 'sqlite' | 'postgres', seconds: number, rate: number, series: MemorySample[]) {
  const settled = series.slice(1);
  const half = Math.floor(settled.length / 2);
  const growth = half
    ? median(settled.slice(half).map((s) => s.rss_mib)) - median(settled.slice(0, half).map((s) => s.rss_mib))
    : 0;
  const timed = { ...params, batches: 0, seconds };
  console.log(
    `[${label}] memory over ${seconds} s (${rate.toFixed(0)} points/s): RSS ${series.map((s) => s.rss_mib).join(', ')} MiB; growth ${growth} MiB`,
  );
  recordFigure({
    bench: 'ingest',
    database: label,
    name: `memory_${label}_rss_growth_mib`,
    value: growth,
    unit: 'MiB',
    params: timed,
    series: series.map((s) => ({ ...s })),
  });
  recordFigure({
    bench: 'ingest',
    database: label,
    name: `memory_${label}_points_per_s`,
    value: Math.round(rate),
    unit: 'points/s',
    params: timed,
  });
}

/** The same rows as the HTTP run, through one prepared insert into a fresh telemetry_raw (migrated). */
async function runBare(plants: number[][]) {
  const fresh = await benchApp();
  await fresh.app.close();
  if (fresh.config.database.dialect !== 'sqlite') throw new Error('the bare loop runs on SQLite');
  const db = new SQLite(fresh.config.database.file);
  // The server's pragmas (db/database.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare(
    'insert into telemetry_raw (signal_id, ts, value) values (?, ?, ?) on conflict do nothing',
  );
  const many = db.transaction((rows: BenchRow[]) => {
    for (const r of rows) insert.run(r.signal_id, r.ts, r.value);
  });
  let elapsedMs = 0;
  let cpuS = 0;
  let points = 0;
  for (let n = 0; n < BATCHES; n++) {
    const rows = batchOf(plants[n % PLANTS]!, Math.floor(n / PLANTS), START_MS, STEPS);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    many(rows);
    cpuS += cpuSeconds(process.cpuUsage(cpu0));
    elapsedMs += performance.now() - t0;
    points += rows.length;
  }
  db.close();
  await fresh.dispose();
  const rate = points / (elapsedMs / 1000);
  const cpuRate = points / cpuS;
  console.log(
    `[bare better-sqlite3] prepared insert loop, ${BATCH}-row transactions: ${points} points = ${rate.toFixed(0)} points/s, ${cpuRate.toFixed(0)} points per CPU second; load ${load()}`,
  );
  return { rate, cpuRate };
}

console.log(
  `bench:ingest ${BATCHES} batches of ${PER_PLANT * STEPS} points (one plant's ${PER_PLANT} signals × ${STEPS} s), ` +
    `${CLIENTS} client processes; Node ${process.version}; load ${load()}`,
);
if (HTTP_SQLITE) {
  const http: HttpRun[] = [];
  const bare: { rate: number; cpuRate: number }[] = [];
  for (let run = 0; run < REPEAT; run++) {
    http.push(await runHttp('sqlite'));
    if (BARE) bare.push(await runBare(http[run]!.plants));
  }
  recordHttp('sqlite', http);
  if (BARE) {
    const ratios = http.map((h, i) => ({
      run: i + 1,
      http_points_per_s: Math.round(h.rate),
      bare_points_per_s: Math.round(bare[i]!.rate),
      ratio: Number((h.rate / bare[i]!.rate).toFixed(3)),
      cpu_ratio: Number((h.cpuRate / bare[i]!.cpuRate).toFixed(3)),
    }));
    const ratio = median(ratios.map((r) => r.ratio));
    const cpuRatio = median(ratios.map((r) => r.cpu_ratio));
    console.log(
      `ratio HTTP/bare, median of ${REPEAT}: ${ratio.toFixed(2)} (wall clock), ${cpuRatio.toFixed(2)} (per CPU second); ` +
        `runs: ${ratios.map((r) => r.ratio.toFixed(2)).join(', ')}`,
    );
    const base = { bench: 'ingest', database: 'sqlite' as const, params, series: ratios };
    recordFigure({
      ...base,
      name: 'bare_sqlite_points_per_s',
      value: Math.round(median(bare.map((b) => b.rate))),
      unit: 'points/s',
    });
    recordFigure({
      ...base,
      name: 'ratio_http_to_bare_sqlite_cpu',
      value: cpuRatio,
      unit: 'ratio',
      aim: { op: '>=', value: 0.7 },
    });
    recordFigure({
      ...base,
      name: 'ratio_http_to_bare_sqlite',
      value: ratio,
      unit: 'ratio',
      aim: { op: '>=', value: 0.7 },
    });
  }
}
if (PG_URL) recordHttp('postgres', [await runHttp('postgres', PG_URL)]);
if (MEMORY_SECONDS > 0) {
  if (HTTP_SQLITE) await runHttp('sqlite', undefined, MEMORY_SECONDS);
  if (PG_URL) await runHttp('postgres', PG_URL, MEMORY_SECONDS);
}
