/**
 * bench:reports — report generation over HTTP (app.inject: auth, validation, scoping, rendering):
 * 1. a monthly production report of the six demo plants (the simulator back-fills BENCH_DAYS (31) days,
 *    the refresh job materialises them) as PDF and as XLSX, BENCH_RUNS (5) calls each after a warm-up;
 * 2. a yearly fleet report of BENCH_PLANTS (200) generated plants (bench/fleet-generator.ts, 20 inverters
 *    each, a year of kpi_daily) as JSON, XLSX and PDF, with the process's peak RSS.
 * Prints p50/max in ms and the load average. Against PostgreSQL when DATABASE_URL is set. BENCH_ONLY=demo or
 * BENCH_ONLY=fleet runs one part alone; BENCH_FORMATS (comma-separated, default json,xlsx,pdf) the fleet
 * report's formats, and BENCH_FLEET_RUNS (1) its calls per format after one warm-up when above 1.
 */
import { loadavg } from 'node:os';
import * as simulatorPackage from '@solar/simulator';
import { startKpiRefresh } from '../src/modules/kpi/jobs/kpi-refresh';
import { localDate } from '../src/modules/kpi/engine/telemetry-imports';
import { seedOrganisation } from '../src/seed/organisation';
import { startInProcessSimulator } from '../src/simulator/in-process-simulator';
import { generateFleet } from './fleet-generator';
import { recordFigure, recordLatencies } from './report';
import { benchAdminToken, benchApp, pct, rssMiB } from './setup';

const DAYS = Number(process.env.BENCH_DAYS ?? 31);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PLANTS = Number(process.env.BENCH_PLANTS ?? 200);
const ONLY = process.env.BENCH_ONLY;
const FORMATS = (process.env.BENCH_FORMATS ?? 'json,xlsx,pdf').split(',') as ('json' | 'xlsx' | 'pdf')[];
const FLEET_RUNS = Number(process.env.BENCH_FLEET_RUNS ?? 1);
const DAY_MS = 86_400_000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

async function timed(
  app: Awaited<ReturnType<typeof benchApp>>['app'],
  token: string,
  url: string,
  runs: number,
) {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    ms.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    bytes = res.rawPayload.length;
  }
  return { ms: ms.sort((a, b) => a - b), bytes };
}
const line = (name: string, r: { ms: number[]; bytes: number }) => {
  console.log(
    `${name.padEnd(44)} p50 ${pct(r.ms, 50).toFixed(0)} ms  max ${r.ms[r.ms.length - 1]!.toFixed(0)} ms  ` +
      `${(r.bytes / 1024).toFixed(0)} KiB  (${r.ms.length} calls; load ${load()})`,
  );
  recordLatencies('reports', name, r.ms, { params: { days: DAYS, plants: PLANTS, bytes: r.bytes } });
};

// 1. The demo's month.
if (ONLY !== 'fleet') {
  const { app, ctx, dispose } = await benchApp(process.env.DATABASE_URL);
  await app.ready();
  await seedOrganisation(ctx);
  const token = await benchAdminToken(ctx);
  let t0 = performance.now();
  const simulator = await startInProcessSimulator(ctx, app.log, {
    simulator: simulatorPackage,
    backfillDays: DAYS,
  });
  await simulator.backfilled;
  await simulator.stop();
  const backfillS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const refresh = startKpiRefresh(ctx, app.log, { intervalMs: 3_600_000, batch: 100_000 });
  for (let n = await refresh.runOnce(); n > 0; n = await refresh.runOnce());
  await refresh.stop();
  const plants = await ctx.db.selectFrom('plants').select(['id', 'time_zone']).orderBy('id').execute();
  const tz = plants[0]!.time_zone;
  const to = localDate(Date.now() - DAY_MS, tz);
  const from = localDate(Date.now() - 30 * DAY_MS, tz);
  console.log(
    `demo: ${plants.length} plants, ${DAYS} days back-filled in ${backfillS.toFixed(0)} s and materialised in ` +
      `${((performance.now() - t0) / 1000).toFixed(0)} s (${ctx.dialect}); report ${from} … ${to}`,
  );
  const ids = plants.map((p) => p.id).join(',');
  for (const format of ['pdf', 'xlsx'] as const) {
    const url = `/api/reports/production?plant_ids=${ids}&from=${from}&to=${to}&lang=tr_TR&format=${format}`;
    await timed(app, token, url, 1);
    line(`monthly production, 6 plants, ${format}`, await timed(app, token, url, RUNS));
  }
  await app.close();
  await dispose();
}

// 2. A year of a generated fleet.
if (ONLY !== 'demo') {
  const { app, ctx, dispose } = await benchApp(process.env.DATABASE_URL);
  await app.ready();
  const token = await benchAdminToken(ctx);
  const now = Date.now();
  const t0 = performance.now();
  await generateFleet(ctx.db, PLANTS, 20, now);
  console.log(
    `fleet: ${PLANTS} plants generated in ${((performance.now() - t0) / 1000).toFixed(0)} s (${ctx.dialect})`,
  );
  const to = new Date(now - 2 * DAY_MS).toISOString().slice(0, 10);
  const from = new Date(now - 365 * DAY_MS).toISOString().slice(0, 10);
  for (const format of FORMATS) {
    peakRss = process.memoryUsage().rss;
    const before = rssMiB();
    const url = `/api/reports/fleet?from=${from}&to=${to}&lang=de_DE&format=${format}`;
    if (FLEET_RUNS > 1) await timed(app, token, url, 1);
    const r = await timed(app, token, url, FLEET_RUNS);
    line(`yearly fleet, ${PLANTS} plants, ${format}`, r);
    console.log(`  RSS before ${before} MiB, peak during ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
    recordFigure({
      bench: 'reports',
      name: `fleet_year_${format}_peak_rss_mib`,
      value: Math.round(peakRss / 2 ** 20),
      unit: 'MiB',
      params: { plants: PLANTS },
    });
  }
  await app.close();
  await dispose();
}
clearInterval(sampler);
