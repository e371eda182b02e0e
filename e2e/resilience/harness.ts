/**
 * What the resilience suites share: the built server as a child process that a suite can kill -9 and start
 * again on the same data directory, its memory, the demo admin's API client, and the JSON summary each
 * suite prints (and appends to BENCH_REPORT through apps/server/bench/report.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recordFigure } from '../../apps/server/bench/report';
import { ApiClient } from '../src/console';
import type { SignalProfile } from './load-client';
import { repoRoot } from '../src/server';

const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

/** The demo administrator (docs/spec-differences.md, demo data): every permission. */
export const ADMIN = { email: 'admin@example.com', password: 'Solar!Admin1' };

/**
 * The fast subset (`npm run test:resilience -- --fast`, or RESILIENCE_FAST=1; what CI runs): the same cases
 * at smaller sizes, each still past what the hole it proves closed needed (a report of 50 plants held the
 * event loop 400 ms of CPU before its reads were split), so that the suites end in a few minutes.
 */
export const FAST = process.env.RESILIENCE_FAST === '1';

/** An integer from the environment, or the default (`fastFallback` in the fast subset). */
export function envInt(name: string, fallback: number, fastFallback = fallback): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return FAST ? fastFallback : fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return value;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ConsoleProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** The server's resident memory in MiB (from /proc), or NaN once it is gone. */
  rssMiB(): number;
  /** SIGKILL: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/**
 * Starts the built server (the bundle `npm start` runs) on `port` with `dataDir` (fresh when absent):
 * SQLite in the data directory unless env names DATABASE_URL, the demo seed, simulator and poller off.
 */
export async function startConsole(
  options: { dataDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<ConsoleProcess> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run \`npm run build\` first`);
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'solar-resilience-'));
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // RESILIENCE_SERVER_FLAGS: extra Node flags for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile it under a suite's load (the load clients and the test process stay unprofiled).
  const extraFlags = (process.env.RESILIENCE_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...extraFlags, '--enable-source-maps', serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      // RESILIENCE_SERVER_LOG_LEVEL=info logs every request with its server-side time (Fastify's
      // `responseTime`), to tell a wait inside the server from one in the load clients or the machine.
      LOG_LEVEL: process.env.RESILIENCE_SERVER_LOG_LEVEL ?? 'warn',
      SIMULATOR: 'false',
      MODBUS_POLLER: 'false',
      MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      // Test devices and cameras listen on loopback, which production refuses (docs/security.md, "Device
      // networks"); a test of the default passes DEVICE_NETWORKS_ALLOW: ''.
      DEVICE_NETWORKS_ALLOW: '127.0.0.0/8,::1/128',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode} before answering`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy within 90 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    port,
    dataDir,
    child,
    rssMiB: () => processRssMiB(child.pid!),
    async kill9() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone()) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The database the suites run on: SQLite in the data directory, or PostgreSQL in a fresh schema of
 * RESILIENCE_DATABASE_URL when set (keep the answer to start the server again on the same data).
 */
export function databaseEnv(): Record<string, string> {
  const url = process.env.RESILIENCE_DATABASE_URL;
  if (!url) return {};
  return { DATABASE_URL: url, DATABASE_SCHEMA: `resilience_${Date.now().toString(36)}_${process.pid}` };
}

/** Removes a data directory the suite made. */
export const removeDataDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** VmRSS of a process in MiB. */
export function processRssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user and system, all threads) a process has used so far, from /proc. */
export function processCpuSeconds(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The demo admin signed in. */
export const adminClient = (url: string) => ApiClient.login(url, ADMIN.email, ADMIN.password);

/** The p-th percentile of sorted values. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/**
 * Prints a suite's summary as one JSON line (`RESILIENCE {...}`) and hands each numeric figure to
 * recordFigure (appended to BENCH_REPORT when set).
 */
export function report(suite: string, summary: Record<string, unknown>, params: Record<string, number> = {}) {
  console.log(`RESILIENCE ${JSON.stringify({ suite, ...summary, params })}`);
  const flat = (prefix: string, value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value))
      recordFigure({ bench: `resilience-${suite}`, name: prefix, value, unit: unitOf(prefix), params });
    else if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) flat(prefix ? `${prefix}.${k}` : k, v);
  };
  flat('', summary);
}

const unitOf = (name: string) => (/ms\b|_ms/.test(name) ? 'ms' : /mib/i.test(name) ? 'MiB' : 'count');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A plant of the demo with its ingest key, its signal ids (from the telemetry catalog) and their kinds. */
export interface IngestTarget {
  plantId: number;
  key: string;
  signals: number[];
  /** `profiles[i]` is what `signals[i]` carries. */
  profiles: SignalProfile[];
}

/** Rotates an ingest key for each of the first `count` demo plants and lists their active signals. */
export async function ingestTargets(api: ApiClient, count: number): Promise<IngestTarget[]> {
  const { plants } = await api.get<{ plants: { id: number }[] }>('telemetry/catalog');
  const out: IngestTarget[] = [];
  for (const plant of plants.slice(0, count)) {
    const catalog = await api.get<{
      devices: { signals: { id: number; key: string; is_counter: boolean }[] }[];
    }>(`telemetry/catalog?plant_id=${plant.id}`);
    const signals = catalog.devices.flatMap((d) => d.signals);
    if (!signals.length) continue;
    const { key } = await api.post<{ key: string }>(`plants/${plant.id}/ingest-key`, {});
    out.push({
      plantId: plant.id,
      key,
      signals: signals.map((s) => s.id),
      profiles: signals.map((s) =>
        s.key === 'status_code'
          ? 'status'
          : s.key === 'event_bits'
            ? 'events'
            : s.is_counter
              ? 'counter'
              : 'gauge',
      ),
    });
  }
  if (!out.length) throw new Error('no demo plant with signals');
  return out;
}
