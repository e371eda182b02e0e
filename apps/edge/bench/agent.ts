/**
 * bench:edge — the edge agent as a process of its own, against the real console (on a fresh SQLite database,
 * or PostgreSQL with BENCH_PG_URL or DATABASE_URL, in this process) and the simulator's SunSpec Modbus TCP server:
 * 1. live: BENCH_DEVICES (50) devices of BENCH_SIGNALS (20) registers each, polled every 10 s and forwarded,
 *    for BENCH_LIVE_SECONDS (120): the agent's RSS and CPU, read from /proc.
 * 2. backlog: the agent stopped, BENCH_BACKLOG_READINGS (1,296,000) readings put into its queue spread over
 *    BENCH_BACKLOG_HOURS (72) before now, the agent started again (at BENCH_BACKLOG_RATE batches a second
 *    when set, else its own default): the time until the queue holds only live readings, and the oldest
 *    live reading not yet in the console (what "live data within 30 s" means) sampled every 2 s meanwhile.
 *    BENCH_EDGE_BACKLOG_DAYS=3 queues the whole outage instead: every device's every signal every 10 s for
 *    3 days (25,920,000 readings at 50 × 20), written straight into the queue file.
 * Prints figures; asserts nothing. The console's configuration endpoints are the stub of
 * src/console-stub.ts, built from the seeded devices.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EdgeConfigAnswer } from '@solar/shared';
import { startSunSpecServer } from '@solar/simulator';
import { benchApp, seedPlants } from '../../server/bench/setup';
import { recordFigure } from '../../server/bench/report';
import { startConsoleStub } from '../src/console-stub';
import { ReadingQueue } from '../src/queue';
import { DEFAULT_BACKLOG_BATCHES_PER_SECOND } from '../src/sender';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 50);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 20);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 120);
const BACKLOG_DAYS = Number(process.env.BENCH_EDGE_BACKLOG_DAYS ?? 0);
const BACKLOG_HOURS = BACKLOG_DAYS ? BACKLOG_DAYS * 24 : Number(process.env.BENCH_BACKLOG_HOURS ?? 72);
const BACKLOG = BACKLOG_DAYS
  ? ((BACKLOG_DAYS * 86_400) / 10) * DEVICES * SIGNALS
  : Number(process.env.BENCH_BACKLOG_READINGS ?? 1_296_000);
/** The console on PostgreSQL (a schema of its own, dropped after) when set, else SQLite. */
const PG_URL = process.env.BENCH_PG_URL || process.env.DATABASE_URL || undefined;
const DATABASE = PG_URL ? ('postgres' as const) : ('sqlite' as const);
/** Unset: the agent's own default (src/sender.ts). */
const BACKLOG_RATE = process.env.BENCH_BACKLOG_RATE;
/** Polls written to the queue per transaction while filling it: one fsync per 100,000 readings. */
const FILL_POLLS_PER_TRANSACTION = 100;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(ROOT, 'apps/edge/dist/cli.js');
// Node flags for the agent only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a drain spends.
const AGENT_FLAGS = (process.env.BENCH_AGENT_FLAGS ?? '').split(/\s+/).filter(Boolean);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) and RSS in MiB of a process, from /proc. */
function usage(pid: number): { cpuS: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuS: ticks / 100, rssMiB: Number(rss) / 1024 };
}

async function main(): Promise<void> {
  // The agent as installed (its RSS without tsx's compiler).
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/edge'),
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('apps/edge/build.mjs failed');
  const { app, ctx, dispose } = await benchApp(PG_URL);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const consolePort = (app.server.address() as AddressInfo).port;
  const [plant] = await seedPlants(ctx.db, 1, DEVICES, SIGNALS);
  const device = await startSunSpecServer({
    port: 0,
    units: Array.from({ length: DEVICES }, (_, i) => ({
      unitId: i + 1,
      kind: 'inverter' as const,
      manufacturer: 'Example',
      model: 'BENCH',
      serial: `B${i + 1}`,
    })),
  });
  const config: EdgeConfigAnswer = {
    plant_id: plant!.plantId,
    plant_time_zone: 'Europe/Istanbul',
    config_version: 'bench',
    devices: Array.from({ length: DEVICES }, (_, d) => ({
      id: d + 1,
      name: `INV-${d}`,
      type: 'inverter' as const,
      protocol: 'modbus_tcp' as const,
      ip: '127.0.0.1',
      port: device.port,
      slave_id: d + 1,
      baud_rate: null,
      serial_path: null,
      poll_interval_s: 10,
      signals: plant!.signals.slice(d * SIGNALS, (d + 1) * SIGNALS).map((id, s) => ({
        id,
        key: `sig_${s}`,
        data_type: 'uint16' as const,
        register_type: 'holding' as const,
        address: 40_000 + s,
        word_order: 'big' as const,
        scale: 1,
        scale_factor_address: null,
        sunspec_type: null,
        value_map: null,
        is_counter: false,
      })),
    })),
  };
  const stub = await startConsoleStub({ consolePort, key: plant!.key, config });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'edge-bench-'));
  let agent: ChildProcess | undefined;
  const startAgent = () => {
    agent = spawn(
      process.execPath,
      [...AGENT_FLAGS, CLI, '--console', stub.url, '--key', plant!.key, '--data-dir', dataDir],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          EDGE_HEALTH_INTERVAL_S: '2',
          ...(BACKLOG_RATE ? { EDGE_BACKLOG_RATE: BACKLOG_RATE } : {}),
          EDGE_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    return agent;
  };
  const stopAgent = async () => {
    const child = agent!;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  const newestStored = async (since: number) => {
    const row = await ctx.db
      .selectFrom('telemetry_raw')
      .select((eb) => eb.fn.max('ts').as('ts'))
      .where('ts', '>=', since)
      .where('signal_id', 'in', plant!.signals)
      .executeTakeFirst();
    return row?.ts === null || row?.ts === undefined ? null : Number(row.ts);
  };

  try {
    // 1. Live.
    const child = startAgent();
    await sleep(15_000); // started, configured, first polls sent
    const first = usage(child.pid!);
    const t0 = Date.now();
    const rss: number[] = [];
    while (Date.now() - t0 < LIVE_SECONDS * 1000) {
      await sleep(5_000);
      rss.push(usage(child.pid!).rssMiB);
    }
    const last = usage(child.pid!);
    const cpuPct = ((last.cpuS - first.cpuS) / ((Date.now() - t0) / 1000)) * 100;
    const rssMax = Math.max(...rss);
    console.log(
      `live: ${DEVICES} devices × ${SIGNALS} signals / 10 s for ${LIVE_SECONDS} s: agent CPU ${cpuPct.toFixed(1)} % of a core, RSS max ${rssMax.toFixed(0)} MiB (load ${loadavg()[0]!.toFixed(1)})`,
    );
    const params = { devices: DEVICES, signals: SIGNALS, seconds: LIVE_SECONDS };
    recordFigure({
      database: DATABASE,
      bench: 'edge',
      name: 'live_cpu_pct',
      value: Number(cpuPct.toFixed(1)),
      unit: '%',
      params,
    });
    recordFigure({
      database: DATABASE,
      bench: 'edge',
      name: 'live_rss_max',
      value: Number(rssMax.toFixed(0)),
      unit: 'MiB',
      params,
    });
    await stopAgent();

    // 2. Backlog.
    const queue = new ReadingQueue(path.join(dataDir, 'queue.sqlite'), { maxRows: 100_000_000 });
    const now = Date.now();
    const from = now - BACKLOG_HOURS * 3_600_000;
    const polls = Math.ceil(BACKLOG / plant!.signals.length);
    const step = Math.floor((now - 60_000 - from) / polls);
    let put = 0;
    const fillFrom = Date.now();
    for (let p = 0; p < polls && put < BACKLOG; p += FILL_POLLS_PER_TRANSACTION) {
      const rows = [];
      for (let q = p; q < Math.min(polls, p + FILL_POLLS_PER_TRANSACTION) && put < BACKLOG; q++) {
        const ts = from + q * step;
        for (const [i, signal_id] of plant!.signals.slice(0, BACKLOG - put).entries())
          rows.push({ signal_id, ts, value: i });
        put = Math.min(BACKLOG, put + plant!.signals.length);
      }
      queue.push(rows);
    }
    queue.close();
    console.log(
      `backlog: ${put} readings queued over ${BACKLOG_HOURS} h (${step / 1000} s apart) in ${((Date.now() - fillFrom) / 1000).toFixed(0)} s; draining at ${BACKLOG_RATE ?? "the agent's default"} batches/s`,
    );
    const drainFrom = Date.now();
    const reportsBefore = stub.health.length;
    startAgent();
    let worstLagMs = 0;
    let drainedAt: number | undefined;
    let printedAt = 0;
    while (!drainedAt && Date.now() - drainFrom < 3 * 3_600_000) {
      await sleep(2_000);
      const newest = await newestStored(drainFrom);
      // The oldest live reading not yet in the console is at most this old.
      if (newest !== null) worstLagMs = Math.max(worstLagMs, Date.now() - newest);
      const report = stub.health.at(-1);
      if (stub.health.length > reportsBefore && report && report.queue_depth <= 3 * DEVICES * SIGNALS) {
        drainedAt = Date.now();
      }
      // Every 2 s for a short drain, every 30 s for a long one.
      if (report && Date.now() - printedAt >= (put > 2_000_000 ? 30_000 : 0)) {
        printedAt = Date.now();
        console.log(
          `  ${((Date.now() - drainFrom) / 1000).toFixed(0)} s: queue ${report.queue_depth}, newest live reading ${((Date.now() - (newest ?? drainFrom)) / 1000).toFixed(1)} s old`,
        );
      }
    }
    const drainS = ((drainedAt ?? Date.now()) - drainFrom) / 1000;
    console.log(
      `backlog drained in ${drainS.toFixed(0)} s (${(put / drainS).toFixed(0)} readings/s); live readings at most ${(worstLagMs / 1000).toFixed(1)} s behind, poll interval 10 s included (load ${loadavg()[0]!.toFixed(1)})`,
    );
    const bparams = {
      readings: put,
      hours: BACKLOG_HOURS,
      batches_per_s: Number(BACKLOG_RATE ?? DEFAULT_BACKLOG_BATCHES_PER_SECOND),
    };
    recordFigure({
      database: DATABASE,
      bench: 'edge',
      name: 'backlog_drain_s',
      value: Math.round(drainS),
      unit: 's',
      params: bparams,
    });
    recordFigure({
      database: DATABASE,
      bench: 'edge',
      name: 'live_lag_during_drain_max_s',
      value: Number((worstLagMs / 1000).toFixed(1)),
      unit: 's',
      params: bparams,
      aim: { op: '<=', value: 30 },
    });
    await stopAgent();
  } finally {
    agent?.kill('SIGKILL');
    await stub.close();
    await device.close();
    await app.close();
    await dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
