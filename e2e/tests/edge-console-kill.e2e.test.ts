/**
 * The console dies under the edge agent: the built server (`apps/server/dist`, its own data directory, as
 * `npm start` runs it) is killed with SIGKILL several times while the built agent (a child process,
 * EDGE_JOURNAL=1) has batches on the wire, and started again on the same database each time. At the end
 * every reading the agent queued is in the console's raw telemetry, nothing else is, and the agent's queue
 * is empty (docs/edge.md, "Tests and bench").
 *
 * Small batches at a bounded rate keep the agent sending without pause after each restart, so each kill
 * lands while the console is storing and answering a batch. On PostgreSQL with RESILIENCE_DATABASE_URL.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSunSpecServer, type SunSpecServer } from '@solar/simulator';
import {
  adminClient,
  databaseEnv,
  removeDataDir,
  startConsole,
  type ConsoleProcess,
} from '../resilience/harness';
import { dropSchema } from '../resilience/raw-store';
import type { ApiClient } from '../src/console';
import { repoRoot } from '../src/server';

const AGENT = path.join(repoRoot, 'apps/edge/dist/cli.js');
const SIGNALS = 8;
/** Two readings a batch: an outage of a few seconds is a stream of batches to send after it. */
const BATCH = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 200,
) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

interface Series {
  signal_id: number;
  points: [number, number | null][];
}

describe('the edge agent while the console process is killed with SIGKILL', () => {
  const dbEnv = databaseEnv();
  let console_: ConsoleProcess;
  let api: ApiClient;
  let device: SunSpecServer;
  const signalIds: number[] = [];
  let plantId = 0;
  let key = '';
  let agentDir = '';
  let agent: ChildProcess | undefined;
  let agentLog = '';
  const startedAt = Date.now();

  beforeAll(async () => {
    const built = spawnSync(process.execPath, ['build.mjs'], {
      cwd: path.join(repoRoot, 'apps/edge'),
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    console_ = await startConsole({ env: dbEnv });
    api = await adminClient(console_.url);
    device = await startSunSpecServer({
      port: 0,
      units: [{ unitId: 1, kind: 'inverter', manufacturer: 'Example', model: 'EDGE', serial: 'K1' }],
    });
    const { plants } = await api.get<{ plants: { id: number }[] }>('telemetry/catalog');
    plantId = plants[0]!.id;
    const saved = await api.post<{ id: number }>('devices/0', {
      plant_id: plantId,
      name: 'Edge kill INV',
      type: 'inverter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: device.port,
      slave_id: 1,
      poll_interval_s: 1,
    });
    // Plain registers of the SunSpec image: fixed values, one reading of each a second.
    for (let i = 0; i < SIGNALS; i++) {
      const signal = await api.post<{ id: number }>('signals/0', {
        device_id: saved.id,
        key: `kill_reg_${i}`,
        name: `Register ${i}`,
        data_type: 'uint16',
        register_type: 'holding',
        address: 40_000 + i,
      });
      signalIds.push(signal.id);
    }
    ({ key } = await api.post<{ key: string }>(`plants/${plantId}/ingest-key`, {}));
    agentDir = mkdtempSync(path.join(tmpdir(), 'edge-console-kill-'));
  });

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await device?.close();
    await console_?.stop();
    if (console_) removeDataDir(console_.dataDir);
    await dropSchema(dbEnv);
    if (agentDir) rmSync(agentDir, { recursive: true, force: true });
  });

  const startAgent = () => {
    agent = spawn(
      process.execPath,
      [AGENT, '--console', console_.url, '--key', key, '--data-dir', agentDir, '--health-interval', '5'],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          EDGE_JOURNAL: '1',
          EDGE_LOG_LEVEL: 'info',
          EDGE_BATCH_SIZE: String(BATCH),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    agent.stderr!.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  };

  /** The console's raw readings of the test's signals, as `signal@ts`. */
  const stored = async (): Promise<string[]> => {
    const q = `telemetry?signal_ids=${signalIds.join(',')}&from=${new Date(startedAt - 60_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}&resolution=raw`;
    const answer = await api.get<{ series: Series[] }>(q);
    return answer.series.flatMap((s) => s.points.map(([ts]) => `${s.signal_id}@${ts}`));
  };

  /** Readings in the agent's queue, read beside the running agent (WAL lets a reader in). */
  const agentDepth = () => {
    const queue = new Database(path.join(agentDir, 'queue.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (queue.prepare('select count(*) as n from readings').get() as { n: number }).n;
    } finally {
      queue.close();
    }
  };

  /** Kills the console, leaves it down `downMs` while the agent queues, and starts it on the same data. */
  const killConsole = async (downMs: number) => {
    await console_.kill9();
    await sleep(downMs);
    console_ = await startConsole({ dataDir: console_.dataDir, port: console_.port, env: dbEnv });
    api = await adminClient(console_.url);
  };

  it('stores every queued reading exactly once through four kills of the console, three mid-stream', async () => {
    startAgent();
    await until(async () => (await stored()).length >= SIGNALS * 3, 60_000, 'the first stored readings');

    // Each kill comes once the console has acknowledged some of the outage's readings and more are queued:
    // the agent is sending its batches one after another, so the kill lands while one is in flight.
    const depthsAtKill: number[] = [];
    // Down for the console's own start-up and a little more: the agent's back-off after failed sends
    // (1, 2, 4 s…) grows with the outage, and the test's time with it.
    for (const downMs of [500, 1_000, 300]) {
      await killConsole(downMs);
      const queued = agentDepth();
      await until(() => agentDepth() <= queued - 2 * BATCH, 30_000, 'the outage being sent', 10);
      depthsAtKill.push(agentDepth());
    }
    await killConsole(500);

    // The device stops answering: nothing new is queued, and the agent empties its queue into the console.
    await device.close();
    const closedAt = Date.now();
    await until(
      async () => {
        const { agents } = await api.get<{
          agents: { plant_id: number; last_report_at: string; queue_depth: number }[];
        }>('admin/collection-health');
        const mine = agents.filter((a) => a.plant_id === plantId);
        return (
          mine.length === 1 && Date.parse(mine[0]!.last_report_at) > closedAt && mine[0]!.queue_depth === 0
        );
      },
      60_000,
      'an empty queue reported to the console',
    );
    agent!.kill('SIGTERM');
    await new Promise((resolve) => agent!.once('exit', resolve));

    const queue = new Database(path.join(agentDir, 'queue.sqlite'), { readonly: true });
    const depth = (queue.prepare('select count(*) as n from readings').get() as { n: number }).n;
    const journal = (
      queue.prepare('select signal_id, ts from journal').all() as { signal_id: number; ts: number }[]
    ).map((r) => `${r.signal_id}@${r.ts}`);
    const counters = Object.fromEntries(
      (queue.prepare('select name, value from counters').all() as { name: string; value: number }[]).map(
        (c) => [c.name, c.value],
      ),
    );
    queue.close();
    expect(depth).toBe(0);
    expect(counters.dropped_total ?? 0).toBe(0);
    expect(counters.rejected_total ?? 0).toBe(0);

    const rows = await stored();
    expect(new Set(journal).size).toBe(journal.length);
    expect(rows.length).toBe(new Set(rows).size);
    expect([...rows].sort(), agentLog.slice(-2_000)).toEqual([...journal].sort());
    // Each kill left readings queued behind the batches on the wire: it came in the middle of the stream.
    expect(Math.min(...depthsAtKill), String(depthsAtKill)).toBeGreaterThan(2 * BATCH);
    expect(journal.length).toBeGreaterThan(SIGNALS * 10);
  });
});
