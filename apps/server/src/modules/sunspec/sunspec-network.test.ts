import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E, type Device } from '@solar/shared';
import { startModbusPoller } from '../../collectors/modbus/modbus-poller';
import { startFakeModbusServer, type FakeModbusServer } from '../../collectors/test/fake-modbus-server';
import { quietLog } from '../../test/collector-helpers';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DEADLINE_MS = 700;

async function listening(server: net.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const modbusBody = (plantId: number, ip: string, port: number) => ({
  plant_id: plantId,
  name: `Modbus ${port}`,
  type: 'inverter',
  protocol: 'modbus_tcp',
  ip,
  port,
  slave_id: 1,
  poll_interval_s: 1,
});

describe(`SunSpec discovery failures look alike (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  const servers: net.Server[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      deviceNetworks: {
        extraAllowed: ['127.0.0.0/8'],
        cameraDeadlineMs: DEADLINE_MS,
        modbusDeadlineMs: DEADLINE_MS,
      },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Scan');
  });
  afterAll(async () => {
    for (const s of servers) {
      if ('closeAllConnections' in s) (s as http.Server).closeAllConnections();
      s.close();
    }
    await t.close();
  });

  it('answers a closed port, a silent port and a web server with the same status, body and time', async () => {
    const closedServer = net.createServer();
    const closed = await listening(closedServer);
    await new Promise((r) => closedServer.close(r));
    const silentSockets: net.Socket[] = [];
    const silentServer = net.createServer((s) => silentSockets.push(s.on('error', () => undefined)));
    servers.push(silentServer);
    const web = http.createServer((_req, res) => res.writeHead(404).end('nope'));
    servers.push(web);
    const ports = { closed, silent: await listening(silentServer), web: await listening(web) };
    const answers: Record<string, { status: number; body: string; ms: number }> = {};
    for (const [name, port] of Object.entries(ports)) {
      const device = await save<Device>(
        t,
        admin.token,
        '/api/devices/0',
        modbusBody(tree.plantId, '127.0.0.1', port),
      );
      const started = performance.now();
      const res = await t.http.post(`/api/devices/${device.id}/sunspec/discover`, undefined, {
        token: admin.token,
      });
      answers[name] = { status: res.statusCode, body: res.body, ms: performance.now() - started };
    }
    for (const s of silentSockets) s.destroy();
    const expected = JSON.stringify({ status: 502, title: 'Bad Gateway', detail: E.deviceUnreachable });
    for (const [name, a] of Object.entries(answers)) {
      expect({ name, status: a.status, body: a.body }).toEqual({ name, status: 502, body: expected });
      expect(a.ms, name).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(a.ms, name).toBeLessThan(DEADLINE_MS + 250);
    }
  });
});

describe(`Modbus TCP hosts outside the device networks (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let device: FakeModbusServer;

  beforeAll(async () => {
    // The production default: no allowance for loopback.
    t = await createTestApp({
      deviceNetworks: { extraAllowed: [], cameraDeadlineMs: DEADLINE_MS, modbusDeadlineMs: DEADLINE_MS },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Loop');
    device = await startFakeModbusServer();
    device.units.set(1, new Map([[40000, 0x5375]]));
  });
  afterAll(async () => {
    await device.close();
    await t.close();
  });

  /** A device row written before the setting existed (or by hand): only the connection-time check is left. */
  const storedDevice = async (ip: string) => {
    const saved = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      modbusBody(tree.plantId, '10.1.1.1', device.port),
    );
    await t.ctx.db.updateTable('devices').set({ ip }).where('id', '=', saved.id).execute();
    return saved;
  };

  it('discovery and the poller never connect to a refused address', async () => {
    const loop = await storedDevice('127.0.0.1');
    const res = await t.http.post(`/api/devices/${loop.id}/sunspec/discover`, undefined, {
      token: admin.token,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: E.deviceUnreachable });
    // Signals to poll (made from the templates, without asking the device).
    const applied = await t.http.post(
      `/api/devices/${loop.id}/sunspec/apply`,
      { models: [103] },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    const poller = startModbusPoller(t.ctx, quietLog, {
      timeoutMs: 200,
      excludeDeviceIds: (id) => id !== loop.id,
    });
    try {
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      await poller.stop();
    }
    expect(device.requests).toEqual([]);
  });
});
