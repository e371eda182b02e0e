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
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { ClientResult, ClientTask } from './ingest-client';
import { batchOf, type BenchRow } from './ingest-batches';
import { recordFigure } from './report';
import { benchApp, pct, rssMiB, seedPlants } from './setup';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 300);
const CLIENTS = Number(process.env.CLIENTS ?? 2);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 1000);
const BARE = process.env.BENCH_BARE !== '0';
const HTTP_SQLITE = process.env.BENCH_HTTP_SQLITE !== '0';
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

async function runHttp(label: 'sqlite' | 'postgres', databaseUrl?: string) {
  const { app, ctx } = await benchApp(databaseUrl);
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
      batches: Array.from({ length: BATCHES }, (_, n) => n).filter((n) => n % CLIENTS === i),
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
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, Number(rssMiB()));
    console.log(`[${label}] ${((performance.now() - t0) / 1000).toFixed(0)} s: RSS ${rssMiB()} MiB`);
  }, 5_000);
  for (const c of clients) c.send({ type: 'go' });
  const results = await Promise.all(done);
  const elapsedS = (performance.now() - t0) / 1000;
  const cpuS = cpuSeconds(process.cpuUsage(cpu0));
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
    `[${label}] server process CPU ${cpuS.toFixed(1)} s = ${cpuRate.toFixed(0)} points per CPU second`,
  );
  recordFigure({
    bench: 'ingest',
    name: `http_${label}_points_per_s`,
    value: Math.round(rate),
    unit: 'points/s',
    params,
  });
  recordFigure({
    bench: 'ingest',
    name: `http_${label}_batch_p50`,
    value: pct(latencies, 50),
    unit: 'ms',
    params,
  });
  await app.close();
  return { rate, cpuRate, plants: plants.map((p) => p.signals) };
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
  const rate = points / (elapsedMs / 1000);
  const cpuRate = points / cpuS;
  console.log(
    `[bare better-sqlite3] prepared insert loop, ${BATCH}-row transactions: ${points} points = ${rate.toFixed(0)} points/s, ${cpuRate.toFixed(0)} points per CPU second; load ${load()}`,
  );
  recordFigure({
    bench: 'ingest',
    name: 'bare_sqlite_points_per_s',
    value: Math.round(rate),
    unit: 'points/s',
    params,
  });
  return { rate, cpuRate };
}

console.log(
  `bench:ingest ${BATCHES} batches of ${PER_PLANT * STEPS} points (one plant's ${PER_PLANT} signals × ${STEPS} s), ` +
    `${CLIENTS} client processes; Node ${process.version}; load ${load()}`,
);
if (HTTP_SQLITE) {
  const sqlite = await runHttp('sqlite');
  if (BARE) {
    const bare = await runBare(sqlite.plants);
    const ratio = sqlite.rate / bare.rate;
    const cpuRatio = sqlite.cpuRate / bare.cpuRate;
    console.log(`ratio HTTP/bare: ${ratio.toFixed(2)} (wall clock), ${cpuRatio.toFixed(2)} (per CPU second)`);
    recordFigure({
      bench: 'ingest',
      name: 'ratio_http_to_bare_sqlite_cpu',
      value: Number(cpuRatio.toFixed(3)),
      unit: 'ratio',
      params,
    });
    recordFigure({
      bench: 'ingest',
      name: 'ratio_http_to_bare_sqlite',
      value: Number(ratio.toFixed(3)),
      unit: 'ratio',
      params,
    });
  }
}
if (process.env.DATABASE_URL) await runHttp('postgres', process.env.DATABASE_URL);
