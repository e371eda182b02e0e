/**
 * bench:data-quality — the data-quality engine's time per plant day (docs/data-quality.md, "Engine and
 * API"), and the longest the event loop was held meanwhile (the server's own watch, lib/event-loop-watch.ts).
 * First the demo (six plants, BENCH_DEMO_DAYS (3) days of the simulator's history) through one pass of the
 * scheduled job; then one plant of BENCH_INVERTERS (20) inverters reporting every minute (an energy counter and AC power
 * each, 57,600 readings a day, and the two days before, which the engine also reads), run BENCH_RUNS (5)
 * times over its yesterday; then yesterday of a fleet of BENCH_PLANTS (200) plants of BENCH_FLEET_INVERTERS
 * (2) inverters reporting every 5 minutes, run as the nightly job runs it (engine.runDays). Every counter
 * misses a quarter hour in the morning, so each day stores flags. Prints ms per plant day. Against
 * PostgreSQL when DATABASE_URL is set. `BENCH_DQ_THREAD=false` runs the detectors (and reads) on the event
 * loop, as before the data-quality thread, for comparison.
 */
import {
  DataQualityEngine,
  DetectionRunner,
  detectionSourceOf,
  startDataQualityJob,
} from '../src/modules/data-quality';
import { EventLoopWatch } from '../src/lib/event-loop-watch';
import { seedDemo } from '../src/seed/demo';
import { startInProcessSimulator } from '../src/simulator/in-process-simulator';
import { loadSimulator } from '../src/simulator/load-simulator';
import { findPlants } from '../src/modules/data-quality/data-quality.repository';
import { previousDate } from '../src/modules/data-quality/engine/data-quality-engine';
import { dayStart, localDate } from '../src/telemetry-store/buckets';
import type { PointToStore } from '../src/telemetry-store/telemetry-hub';
import { recordFigure } from './report';
import { benchApp, seedPlants } from './setup';

const INVERTERS = Number(process.env.BENCH_INVERTERS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PLANTS = Number(process.env.BENCH_PLANTS ?? 200);
const FLEET_INVERTERS = Number(process.env.BENCH_FLEET_INVERTERS ?? 2);
const DEMO_DAYS = Number(process.env.BENCH_DEMO_DAYS ?? 3);
const MIN = 60_000;

const { app, ctx, config, dispose } = await benchApp(process.env.DATABASE_URL);
// Not made ready: the engine is driven here, and the scheduled job must not run beside it. The job's
// thread (ctx.dataQualityThread) ends with the job; the engine's runs below have one of their own.
const onThread = process.env.BENCH_DQ_THREAD !== 'false';
const thread = new DetectionRunner(detectionSourceOf(config.database));
const engine = new DataQualityEngine({ ...ctx, ...(onThread ? { thread } : {}) });

/** The event loop's longest hold while `work` runs, ms (the watch ticks every 100 ms). */
async function heldWhile<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; heldMs: number }> {
  const watch = new EventLoopWatch({ warn: () => undefined });
  watch.start();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  // One more tick, so that a hold at the very end is counted.
  await new Promise((resolve) => setTimeout(resolve, 150));
  const heldMs = watch.takeFigures().maxSeconds * 1000;
  watch.stop();
  return { result, ms, heldMs };
}

let t0 = performance.now();
await seedDemo(ctx);
const simulatorPackage = await loadSimulator();
if (!simulatorPackage) throw new Error('bench:data-quality needs @solar/simulator (a devDependency)');
const simulator = await startInProcessSimulator(ctx, app.log, {
  simulator: simulatorPackage,
  backfillDays: DEMO_DAYS,
});
await simulator.backfilled;
await simulator.stop();
const demoWriteS = (performance.now() - t0) / 1000;
const job = startDataQualityJob({ ...ctx, ...(onThread ? {} : { dataQualityThread: undefined }) }, app.log, {
  firstDelayMs: 2 ** 31 - 1,
});
const demo = await heldWhile(() => job.runOnce());
await job.stop();
console.log(
  `demo, ${DEMO_DAYS} days of history (written in ${demoWriteS.toFixed(1)} s): one pass of the job, ` +
    `${demo.result} plant days in ${(demo.ms / 1000).toFixed(2)} s, event loop held ` +
    `${demo.heldMs.toFixed(0)} ms at most (${ctx.dialect})`,
);
recordFigure({
  bench: 'data-quality',
  name: 'demo_pass_s',
  value: Number((demo.ms / 1000).toFixed(2)),
  unit: 's',
  params: { days: DEMO_DAYS, plant_days: demo.result },
});
recordFigure({
  bench: 'data-quality',
  name: 'demo_pass_event_loop_held_ms',
  value: Math.round(demo.heldMs),
  unit: 'ms',
  params: { days: DEMO_DAYS },
});

/**
 * Three local days (yesterday and the two before) of every `stepMin` minutes for the plants' counters
 * (rising) and powers (a half sine over daylight), without 08:00–08:15 of each counter.
 */
async function writeDays(
  plants: { plantId: number; counters: number[]; powers: number[] }[],
  stepMin: number,
): Promise<number> {
  let written = 0;
  let batch: PointToStore[] = [];
  const flush = async () => {
    if (batch.length) await ctx.telemetry.store(batch);
    written += batch.length;
    batch = [];
  };
  const zones = new Map((await findPlants(ctx.db, { all: true })).map((p) => [p.id, p.timeZone]));
  for (const p of plants) {
    const tz = zones.get(p.plantId)!;
    const yesterday = previousDate(localDate(Date.now(), tz));
    const first = dayStart(previousDate(previousDate(yesterday)), tz);
    const end = dayStart(localDate(Date.now(), tz), tz);
    for (let ts = first, i = 0; ts < end; ts += stepMin * MIN, i++) {
      const minute = ((ts - first) / MIN) % 1440;
      const sun = Math.max(0, Math.sin(((minute - 360) / 720) * Math.PI));
      const missing = minute >= 480 && minute < 495;
      for (const s of p.counters) if (!missing) batch.push({ signal_id: s, ts, value: 1000 + i });
      for (const s of p.powers) batch.push({ signal_id: s, ts, value: 80 * sun });
      if (batch.length >= 10_000) await flush();
    }
  }
  await flush();
  return written;
}

t0 = performance.now();
const [big] = await seedPlants(ctx.db, 1, INVERTERS, 2);
const bigPoints = await writeDays([big!], 1);
const bigPlant = (await findPlants(ctx.db, { all: true }, big!.plantId))[0]!;
const bigDay = previousDate(localDate(Date.now(), bigPlant.timeZone));
const plantDayMs: number[] = [];
let flags = 0;
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  flags = (await engine.runPlantDay(bigPlant, bigDay)).flags;
  plantDayMs.push(performance.now() - start);
}
plantDayMs.sort((a, b) => a - b);
const median = plantDayMs[Math.floor(plantDayMs.length / 2)]!;
console.log(
  `one plant of ${INVERTERS} inverters, 1-minute data (${bigPoints} points over 3 days written in ` +
    `${((performance.now() - t0) / 1000).toFixed(1)} s): ${median.toFixed(0)} ms per plant day ` +
    `(median of ${RUNS}, ${flags} flags) (${ctx.dialect})`,
);
recordFigure({
  bench: 'data-quality',
  name: 'plant_day_ms',
  value: Number(median.toFixed(1)),
  unit: 'ms',
  params: { inverters: INVERTERS, interval_min: 1, runs: RUNS },
});

t0 = performance.now();
const fleet = await seedPlants(ctx.db, PLANTS, FLEET_INVERTERS, 2);
await ctx.db
  .updateTable('devices')
  .set({ poll_interval_s: 300 })
  .where(
    'plant_id',
    'in',
    fleet.map((p) => p.plantId),
  )
  .execute();
const fleetPoints = await writeDays(fleet, 5);
const writeS = (performance.now() - t0) / 1000;
const ids = new Set(fleet.map((p) => p.plantId));
const fleetPlants = (await findPlants(ctx.db, { all: true })).filter((p) => ids.has(p.id));
const {
  result: runs,
  ms: fleetMs,
  heldMs: fleetHeldMs,
} = await heldWhile(() =>
  engine.runDays(
    fleetPlants.map((plant) => ({ plant, day: previousDate(localDate(Date.now(), plant.timeZone)) })),
  ),
);
console.log(
  `yesterday of ${PLANTS} plants of ${FLEET_INVERTERS} inverters, 5-minute data (${fleetPoints} points ` +
    `written in ${writeS.toFixed(1)} s): ${(fleetMs / 1000).toFixed(1)} s, ` +
    `${(fleetMs / runs.length).toFixed(1)} ms per plant day, ` +
    `${runs.reduce((n, r) => n + r.flags, 0)} flags, event loop held ${fleetHeldMs.toFixed(0)} ms at most ` +
    `(${ctx.dialect})`,
);
recordFigure({
  bench: 'data-quality',
  name: 'fleet_event_loop_held_ms',
  value: Math.round(fleetHeldMs),
  unit: 'ms',
  params: { plants: PLANTS, inverters: FLEET_INVERTERS, interval_min: 5 },
});
recordFigure({
  bench: 'data-quality',
  name: 'fleet_yesterday_s',
  value: Number((fleetMs / 1000).toFixed(2)),
  unit: 's',
  params: { plants: PLANTS, inverters: FLEET_INVERTERS, interval_min: 5 },
});
recordFigure({
  bench: 'data-quality',
  name: 'fleet_plant_day_ms',
  value: Number((fleetMs / runs.length).toFixed(1)),
  unit: 'ms',
  params: { plants: PLANTS, inverters: FLEET_INVERTERS, interval_min: 5 },
});
await thread.close();
await app.close();
await dispose();
