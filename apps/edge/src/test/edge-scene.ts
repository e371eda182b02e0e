/**
 * The scene of the agent's end-to-end tests: the console's app over HTTP on its database, a plant with one
 * SunSpec inverter served by the simulator over Modbus TCP and four of its registers as signals, the plant's
 * ingest key and the console's configuration answer for it, and the built agent started as a child process
 * against them. What each test does to the scene (kills, outages) is its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { edgeConfigAnswer, type Device, type Signal } from '@solar/shared';
import { startSunSpecServer } from '@solar/simulator';
import { makeTree, makeUser, save } from '../../../server/src/test/org-fixtures';
import { createTestApp } from '../../../server/src/test/test-app';
import { ReadingQueue } from '../queue';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const CLI = path.join(ROOT, 'apps/edge/dist/cli.js');
/** Signals of the inverter the agent polls, once a second. */
export const POLLED_SIGNALS = 4;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/**
 * The agent as installed: the bundle `npm run build -w apps/edge` makes (it also starts in a second on a
 * loaded machine, where tsx's compile took many).
 */
function buildAgent() {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/edge'),
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
}

export async function openEdgeScene(options: {
  app?: Parameters<typeof createTestApp>[0];
  /** Arguments the agent gets besides the console, the key and the data directory. */
  agentArgs?: string[];
}) {
  buildAgent();
  const t = await createTestApp(options.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const consolePort = (t.app.server.address() as AddressInfo).port;
  const admin = await makeUser(t, { admin: true });
  const tree = await makeTree(t, admin.token, 'Edge');
  const device = await startSunSpecServer({
    port: 0,
    units: [{ unitId: 1, kind: 'inverter', manufacturer: 'Example', model: 'EDGE', serial: 'E1' }],
  });
  const saved = await save<Device>(t, admin.token, '/api/devices/0', {
    plant_id: tree.plantId,
    name: 'Edge INV',
    type: 'inverter',
    protocol: 'modbus_tcp',
    ip: '127.0.0.1',
    port: device.port,
    slave_id: 1,
    poll_interval_s: 1,
  });
  // Plain registers of the SunSpec image (the marker and the common model's header): fixed values.
  const signals: Signal[] = [];
  for (let i = 0; i < POLLED_SIGNALS; i++) {
    signals.push(
      await save<Signal>(t, admin.token, '/api/signals/0', {
        device_id: saved.id,
        key: `reg_${i}`,
        name: `Register ${i}`,
        data_type: 'uint16',
        register_type: 'holding',
        address: 40_000 + i,
      }),
    );
  }
  const res = await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  const key = res.json<{ key: string }>().key;
  // What the agent will read: the console's own answer for the plant's key.
  const answer = await t.http.get('/api/edge/config', { headers: { 'x-api-key': key } });
  expect(answer.statusCode, answer.body).toBe(200);
  const config = edgeConfigAnswer.parse(answer.json());
  // The tree's own devices are in it too (without signals, nothing to poll); this one with its four.
  const polled = config.devices.find((d) => d.id === saved.id)!;
  expect(polled.signals.map((s) => s.id)).toEqual(signals.map((s) => s.id));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'edge-e2e-'));
  const polledIds = polled.signals.map((s) => s.id);

  let agent: ChildProcess | undefined;
  let agentLog = '';
  /**
   * Starts the agent against the console (or `console.url`, a proxy in front of it), `env` added to its
   * environment.
   */
  const startAgent = (start: { url?: string; env?: Record<string, string> } = {}) => {
    agent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--console',
        start.url ?? `http://127.0.0.1:${consolePort}`,
        '--key',
        key,
        '--data-dir',
        dataDir,
        // Every 5 s: within the console's 20 reports a minute per key.
        '--health-interval',
        '5',
        ...(options.agentArgs ?? []),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, EDGE_JOURNAL: '1', EDGE_LOG_LEVEL: 'info', ...start.env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    agent.stderr!.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  };
  const agentRows = () => t.ctx.db.selectFrom('edge_agents').selectAll().execute();

  return {
    t,
    admin,
    device,
    consolePort,
    config,
    polled,
    dataDir,
    /** The agent last started, and everything it logged since the scene opened. */
    agent: () => agent!,
    agentLog: () => agentLog,
    startAgent,
    /** Starts the agent and resolves once it polls (its configuration read from the console or its disk). */
    async polling(start: Parameters<typeof startAgent>[0] = {}) {
      const before = agentLog.split('"msg":"polling"').length;
      startAgent(start);
      await until(() => agentLog.split('"msg":"polling"').length > before, 60_000, 'the agent polling');
    },
    /** Kills the agent with SIGKILL, as a power cut would, and waits for it to be gone. */
    async killAgent() {
      agent!.kill('SIGKILL');
      await exited(agent!);
    },
    /** Rows of the polled signals in the console's raw telemetry. */
    storedCount: async () => {
      const row = await t.ctx.db
        .selectFrom('telemetry_raw')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('signal_id', 'in', polledIds)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** The console's record of the agent's health reports (one row per agent, replaced by each report). */
    agentRows,
    /** The device stops answering: once the agent reports an empty queue, it is stopped with SIGTERM. */
    async drainAndStop() {
      await device.close();
      const closedAt = Date.now();
      await until(
        async () => {
          const rows = await agentRows();
          return (
            rows.length === 1 && Number(rows[0]!.last_report_at) > closedAt && rows[0]!.queue_depth === 0
          );
        },
        90_000,
        'an empty queue reported to the console',
      );
      agent!.kill('SIGTERM');
      expect(await exited(agent!)).toBe(0);
    },
    /**
     * The journal of every reading the agent queued against the console's raw rows: each queued once, stored
     * once, nothing else stored, the queue empty with nothing dropped or refused, one agent for the key's
     * plant. Answers the stored readings (`signal@ts`).
     */
    async expectJournalStoredOnce() {
      const queue = new ReadingQueue(path.join(dataDir, 'queue.sqlite'), { maxRows: 1_000_000 });
      const queued = queue.journalEntries().map((r) => `${r.signal_id}@${r.ts}`);
      expect(queue.depth).toBe(0);
      expect(queue.counter('dropped_total')).toBe(0);
      expect(queue.counter('rejected_total')).toBe(0);
      expect(queue.counter('queued_total')).toBe(queued.length);
      queue.close();
      const stored = (
        await t.ctx.db
          .selectFrom('telemetry_raw')
          .select(['signal_id', 'ts'])
          .where('signal_id', 'in', polledIds)
          .execute()
      ).map((r) => `${r.signal_id}@${Number(r.ts)}`);
      // Each reading is queued once (the journal holds no repeat) and stored once, and nothing else is stored.
      expect(new Set(queued).size).toBe(queued.length);
      expect(stored.length).toBe(new Set(stored).size);
      expect([...stored].sort()).toEqual([...queued].sort());
      // The agent reported itself with one id throughout, for its key's plant.
      expect((await agentRows()).map((r) => r.plant_id)).toEqual([config.plant_id]);
      return { stored, queued };
    },
    async close() {
      agent?.kill('SIGKILL');
      await device.close();
      if (!t.app.server.listening) {
        await new Promise<void>((resolve) => t.app.server.listen(consolePort, '127.0.0.1', resolve));
      }
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type EdgeScene = Awaited<ReturnType<typeof openEdgeScene>>;

/** The stored readings (`signal@ts`) whose time lies strictly between `from` and `to`. */
export const storedBetween = (stored: string[], from: number, to: number) =>
  stored.filter((r) => {
    const ts = Number(r.split('@')[1]);
    return ts > from && ts < to;
  });
