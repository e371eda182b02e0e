/**
 * bench:kpi — latency of GET plants/overview and GET plants/{id}/kpis?period=year on the demo fleet: the
 * six demo plants (seed/organisation.ts) fed BENCH_DAYS (14) of history by the in-process simulator through
 * the real ingest door, the finished days materialised into kpi_daily by the refresh job, then BENCH_RUNS
 * (200) calls of each. With BENCH_LONG_DAYS (e.g. 1460), the demo's long-history plant (Serik GES-1) gets
 * that many days back to its commissioning as the demo's first start writes them, and its KPI call is timed
 * too (its first call, which computes the estimates, apart). Prints p50/p95 in ms. Against PostgreSQL when
 * DATABASE_URL is set.
 */
import * as simulatorPackage from '@solar/simulator';
import { DEMO_LONG_HISTORY_PLANT } from '../src/background';
import { startKpiRefresh } from '../src/modules/kpi/jobs/kpi-refresh';
import { seedOrganisation } from '../src/seed/organisation';
import { startInProcessSimulator } from '../src/simulator/in-process-simulator';
import { recordLatencies } from './report';
import { benchApp, pct, benchAdminToken } from './setup';

const DAYS = Number(process.env.BENCH_DAYS ?? 14);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const LONG_DAYS = Number(process.env.BENCH_LONG_DAYS ?? 0);

const { app, ctx, dispose } = await benchApp(process.env.DATABASE_URL);
await app.ready();
await seedOrganisation(ctx);
const token = await benchAdminToken(ctx);

let t0 = performance.now();
const simulator = await startInProcessSimulator(ctx, app.log, {
  simulator: simulatorPackage,
  backfillDays: DAYS,
  ...(LONG_DAYS > 0 ? { longHistory: { plant: DEMO_LONG_HISTORY_PLANT, days: LONG_DAYS } } : {}),
});
await simulator.backfilled;
await simulator.stop();
const backfillS = (performance.now() - t0) / 1000;

t0 = performance.now();
const refresh = startKpiRefresh(ctx, app.log, { intervalMs: 3_600_000, batch: 100_000 });
let days = 0;
for (let n = await refresh.runOnce(); n > 0; n = await refresh.runOnce()) days += n;
await refresh.stop();
const materialiseS = (performance.now() - t0) / 1000;

const plants = await ctx.db.selectFrom('plants').select('id').orderBy('id').execute();
async function time(url: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    ms.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  }
  return ms.sort((a, b) => a - b);
}
const today = new Date().toISOString().slice(0, 10);
const results: Record<string, number[]> = {
  'plants/overview': await time('/api/plants/overview'),
  'plants/{id}/kpis?period=year': await time(`/api/plants/${plants[0]!.id}/kpis?period=year&date=${today}`),
};
if (LONG_DAYS > 0) {
  const url = `/api/plants/${plants[DEMO_LONG_HISTORY_PLANT]!.id}/kpis?period=year&date=${today}`;
  const start = performance.now();
  await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  console.log(`long-history plant's first KPI call: ${(performance.now() - start).toFixed(0)} ms`);
  results[`long-history plant kpis?period=year`] = await time(url);
}
console.log(
  `demo fleet: ${plants.length} plants, ${DAYS} days back-filled in ${backfillS.toFixed(1)} s, ` +
    `${days} plant-days materialised in ${materialiseS.toFixed(1)} s (${ctx.dialect})`,
);
for (const [name, ms] of Object.entries(results)) {
  console.log(
    `${name.padEnd(32)} p50 ${pct(ms, 50).toFixed(1)} ms  p95 ${pct(ms, 95).toFixed(1)} ms  (${RUNS} calls)`,
  );
  recordLatencies('kpi', name, ms, { params: { days: DAYS, runs: RUNS } });
}
await app.close();
await dispose();
