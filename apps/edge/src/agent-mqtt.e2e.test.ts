/**
 * The agent forwarding over MQTT, against the real console and a Mosquitto of the test's own (the shipped
 * configuration, on a free port; the shared broker on 1883 is never touched): the console's app over HTTP
 * on its database (configuration and health) with its MQTT collectors started from config.mqtt, the
 * simulator's SunSpec Modbus TCP server as the device, and the agent as a child process with `--mqtt-url`.
 * The console's MQTT side goes away while the broker keeps taking (and PUBACKing) the agent's batches, then
 * the broker is killed with SIGKILL and started again a while later, losing what it held for the console;
 * the agent is killed with SIGKILL too. An agent that took the broker's PUBACK for an acknowledgement
 * would lose those batches. At the end every reading the
 * agent queued (its journal) is in the console's raw telemetry exactly once, the queue is empty, and the
 * readings came over MQTT: a batch leaves the queue only on the console's ack, sent after commit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeConfigAnswer, type Device, type EdgeConfigAnswer, type Signal } from '@solar/shared';
import { startSunSpecServer, type SunSpecServer } from '@solar/simulator';
import { makeTree, makeUser, save, type TestUser } from '../../server/src/test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../server/src/test/test-app';
import { startEdgeMqtt } from '../../server/src/background';
import type { EdgeReadingsCollector } from '../../server/src/collectors/mqtt/edge-readings';
import { mosquittoAvailable, startOwnMosquitto, type OwnBroker } from '../../server/src/test/mosquitto';
import { ReadingQueue } from './queue';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(ROOT, 'apps/edge/dist/cli.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// In CI (REQUIRE_ALL_SUITES) a missing broker binary fails instead of skipping.
const skip = !mosquittoAvailable && !process.env.REQUIRE_ALL_SUITES;

describe.skipIf(skip)(`the edge agent forwarding over MQTT (${dialectUnderTest})`, () => {
  let broker: OwnBroker;
  let t: TestApp;
  let mqttConfig: { url: string; clientId: string; connections: number; shareGroup: string };
  /** The console's edge collector started again after the broker's crash. */
  let edgeAgain: EdgeReadingsCollector | undefined;
  let admin: TestUser;
  let device: SunSpecServer;
  let consolePort: number;
  let consoleUrl: string;
  let config: EdgeConfigAnswer;
  let polled: EdgeConfigAnswer['devices'][number];
  let key: string;
  let dataDir: string;
  let agent: ChildProcess | undefined;
  let agentLog = '';

  beforeAll(async () => {
    // The agent as installed: the bundle `npm run build -w apps/edge` makes (it also starts in a second
    // on a loaded machine, where tsx's compile took many).
    const built = spawnSync(process.execPath, ['build.mjs'], {
      cwd: path.join(ROOT, 'apps/edge'),
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    broker = await startOwnMosquitto();
    mqttConfig = { url: broker.url, clientId: 'solar-console', connections: 2, shareGroup: 'solar' };
    t = await createTestApp({ mqtt: mqttConfig });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    consolePort = (t.app.server.address() as AddressInfo).port;
    admin = await makeUser(t, { admin: true });
    const tree = await makeTree(t, admin.token, 'Edge');
    device = await startSunSpecServer({
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
    for (let i = 0; i < 4; i++) {
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
    key = res.json<{ key: string }>().key;
    // What the agent will read: the console's own answer for the plant's key.
    const answer = await t.http.get('/api/edge/config', { headers: { 'x-api-key': key } });
    expect(answer.statusCode, answer.body).toBe(200);
    config = edgeConfigAnswer.parse(answer.json());
    // The tree's own devices are in it too (without signals, nothing to poll); this one with its four.
    polled = config.devices.find((d) => d.id === saved.id)!;
    expect(polled.signals.map((s) => s.id)).toEqual(signals.map((s) => s.id));
    consoleUrl = `http://127.0.0.1:${consolePort}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'edge-e2e-'));
  });

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await edgeAgain?.stop();
    await device?.close();
    if (t && !t.app.server.listening) {
      await new Promise<void>((resolve) => t.app.server.listen(consolePort, '127.0.0.1', resolve));
    }
    await t?.close();
    await broker?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const startAgent = () => {
    agent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        '--console',
        consoleUrl,
        '--key',
        key,
        '--data-dir',
        dataDir,
        // Every 5 s: within the console's 20 reports a minute per key.
        '--health-interval',
        '5',
        '--mqtt-url',
        broker.url,
        // A batch whose ack is lost with a killed broker goes again after this many seconds.
        '--ack-timeout',
        '5',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, EDGE_JOURNAL: '1', EDGE_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    agent.stderr!.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
  };
  /** Started and polling: its configuration read (from the console or its data directory). */
  const polling = async () => {
    const before = agentLog.split('"msg":"polling"').length;
    startAgent();
    await until(() => agentLog.split('"msg":"polling"').length > before, 60_000, 'the agent polling');
  };
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  const storedCount = async () => {
    const ids = polled.signals.map((s) => s.id);
    const row = await t.ctx.db
      .selectFrom('telemetry_raw')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('signal_id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** The console's record of the agent's health reports (one row per agent, replaced by each report). */
  const agentRows = () => t.ctx.db.selectFrom('edge_agents').selectAll().execute();

  it('stores every reading it queued exactly once through broker and agent kills', async () => {
    await polling();
    await until(async () => (await storedCount()) > 0, 60_000, 'the first stored readings');

    // Killed at any moment while it polls and sends: what it queued goes after the restart.
    await sleep(1_500);
    agent!.kill('SIGKILL');
    await exited(agent!);
    await polling();
    await until(async () => (await storedCount()) > 4 * 4, 60_000, 'readings after the restart');

    // The console's MQTT side goes away: the broker keeps taking the agent's batches (PUBACK) and queues
    // them for the console's session. Then the broker dies with them and is away for a while.
    const edgeFirst = t.background()!.edgeMqtt!;
    await edgeFirst.stop();
    const before = await storedCount();
    const outageFrom = Date.now();
    await sleep(4_000);
    await broker.crash();
    await sleep(6_000);
    const outageTo = Date.now();
    await broker.start();
    edgeAgain = startEdgeMqtt(t.ctx, t.app.log, mqttConfig);
    await until(async () => (await storedCount()) > before + 4 * 6, 90_000, 'the backlog after the outage');

    // The device stops answering: nothing new is queued, and the agent empties its queue.
    await device.close();
    const closedAt = Date.now();
    await until(
      async () => {
        const rows = await agentRows();
        return rows.length === 1 && Number(rows[0]!.last_report_at) > closedAt && rows[0]!.queue_depth === 0;
      },
      90_000,
      'an empty queue reported to the console',
    );
    agent!.kill('SIGTERM');
    expect(await exited(agent!)).toBe(0);

    const queue = new ReadingQueue(path.join(dataDir, 'queue.sqlite'), { maxRows: 1_000_000 });
    const queued = queue.journalEntries().map((r) => `${r.signal_id}@${r.ts}`);
    expect(queue.depth).toBe(0);
    expect(queue.counter('dropped_total')).toBe(0);
    expect(queue.counter('rejected_total')).toBe(0);
    expect(queue.counter('queued_total')).toBe(queued.length);
    queue.close();

    const ids = polled.signals.map((s) => s.id);
    const stored = (
      await t.ctx.db
        .selectFrom('telemetry_raw')
        .select(['signal_id', 'ts'])
        .where('signal_id', 'in', ids)
        .execute()
    ).map((r) => `${r.signal_id}@${Number(r.ts)}`);
    expect(new Set(queued).size).toBe(queued.length);
    expect(stored.length).toBe(new Set(stored).size);
    expect([...stored].sort()).toEqual([...queued].sort());
    // Readings taken while the broker was down arrived afterwards (a poll a second of four signals).
    const duringOutage = stored.filter((r) => {
      const ts = Number(r.split('@')[1]);
      return ts > outageFrom && ts < outageTo;
    });
    expect(duringOutage.length, agentLog).toBeGreaterThanOrEqual(4 * 4);
    // They came over MQTT, each point through the console's edge collector (resends count again there).
    const [first, again] = [edgeFirst.stats(), edgeAgain.stats()];
    expect(first.points + again.points).toBeGreaterThanOrEqual(queued.length);
    expect(first.unauthorised + first.invalid + first.rejected).toBe(0);
    expect(again.unauthorised + again.invalid + again.rejected).toBe(0);
    expect(agentLog).toContain('"readingsOver":"mqtt"');
    const rows = await agentRows();
    expect(rows.map((r) => r.plant_id)).toEqual([config.plant_id]);
  });
});
