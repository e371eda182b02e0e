/**
 * Blind scanning from the server (docs/security.md, "Device networks"), over HTTP against the built server:
 * a camera or SunSpec discovery aimed at a closed port, a silent port and an open HTTP service gets the same
 * answer at the same moment, so the answers cannot map the server's networks; and the production default
 * refuses loopback addresses when they are saved.
 */
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../src/console';
import { adminClient, removeDataDir, report, startConsole, type ConsoleProcess } from './harness';

/** The built server's defaults (apps/server/src/config.ts): every failure is answered at these. */
const CAMERA_DEADLINE_MS = 5_000;
const DISCOVERY_DEADLINE_MS = 3_000;
/** Answers at the deadline may differ by scheduling and the loaded machine's jitter, never by a port's state. */
const SPREAD_MS = 300;
/**
 * Each case is asked this often and its fastest answer kept, as a scanner would repeat a probe: the shared
 * machine stalls the server's event loop now and then, which delays whichever answer is due, port or not.
 */
const ROUNDS = 2;

async function listen(server: net.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

interface Raw {
  status: number;
  body: string;
  ms: number;
}

/** A call whose failure is the result: status, body and time, as an outside tester sees them. */
async function raw(api: ApiClient, url: string, method: string, apiPath: string): Promise<Raw> {
  const started = performance.now();
  const res = await fetch(`${url}/api/${apiPath}`, {
    method,
    headers: { ...api.xsrfHeaders(), authorization: `Bearer ${api.sessionToken}` },
  });
  const body = await res.text();
  return { status: res.status, body, ms: Math.round(performance.now() - started) };
}

/** Each case's fastest answer, as a scanner that repeats its probes would take it. */
const fastestOf = (answers: Record<string, Raw[]>) =>
  Object.fromEntries(
    Object.entries(answers).map(([name, all]) => [name.replace(' ', '_'), Math.min(...all.map((a) => a.ms))]),
  );

/** The same status and body for every case, each answered at the deadline (within SPREAD_MS). */
function expectAlike(answers: Record<string, Raw[]>, deadlineMs: number) {
  const all = Object.values(answers).flat();
  expect(new Set(all.map((a) => `${a.status} ${a.body}`)).size).toBe(1);
  for (const a of all) {
    expect(a.status).toBe(502);
    expect(a.ms).toBeGreaterThanOrEqual(deadlineMs - 5);
  }
  const times = Object.values(fastestOf(answers));
  expect(Math.max(...times) - Math.min(...times)).toBeLessThan(SPREAD_MS);
}

describe('network: failures cannot be told apart', () => {
  let server: ConsoleProcess;
  let api: ApiClient;
  let plantId: number;
  const closers: (() => void)[] = [];
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    // The harness allows loopback explicitly (DEVICE_NETWORKS_ALLOW), so the test servers can be reached.
    server = await startConsole();
    api = await adminClient(server.url);
    const { plants } = await api.get<{ plants: { id: number }[] }>('telemetry/catalog');
    plantId = plants[0]!.id;
    const probe = net.createServer();
    ports.closed = await listen(probe);
    await new Promise((r) => probe.close(r));
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s.on('error', () => undefined)));
    ports.silent = await listen(silent);
    const web = http.createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
    );
    ports.web = await listen(web);
    closers.push(() => {
      for (const s of sockets) s.destroy();
      silent.close();
      web.closeAllConnections();
      web.close();
    });
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('answers camera snapshots from a closed port, a silent port and a web server alike', async () => {
    const ids: Record<string, number> = {};
    for (const [name, port] of Object.entries(ports)) {
      const url = `http://127.0.0.1:${port}/snap.jpg`;
      ids[name] = (
        await api.post<{ id: number }>('devices/0', {
          plant_id: plantId,
          name: `Scan ${name}`,
          type: 'camera',
          protocol: 'http',
          snapshot_url: url,
          stream_url: url,
        })
      ).id;
    }
    // One after the other, as a scanner probes: each answer's time is the server's alone.
    const answers: Record<string, Raw[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, id] of Object.entries(ids)) {
        for (const kind of ['snapshot', 'stream']) {
          (answers[`${name} ${kind}`] ??= []).push(
            await raw(api, server.url, 'GET', `cameras/${id}/${kind}`),
          );
        }
      }
    }
    report('network', { camera_ms: fastestOf(answers) });
    expectAlike(answers, CAMERA_DEADLINE_MS);
    expect(JSON.parse(Object.values(answers)[0]![0]!.body)).toEqual({
      status: 502,
      title: 'Bad Gateway',
      detail: 'errors.cameraUnreachable',
    });
  }, 120_000);

  it('answers SunSpec discovery of a closed port, a silent port and a web server alike', async () => {
    const answers: Record<string, Raw[]> = {};
    const ids: Record<string, number> = {};
    for (const [name, port] of Object.entries(ports)) {
      ids[name] = (
        await api.post<{ id: number }>('devices/0', {
          plant_id: plantId,
          name: `Scan Modbus ${name}`,
          type: 'inverter',
          protocol: 'modbus_tcp',
          ip: '127.0.0.1',
          port,
          slave_id: 1,
        })
      ).id;
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, id] of Object.entries(ids)) {
        (answers[name] ??= []).push(await raw(api, server.url, 'POST', `devices/${id}/sunspec/discover`));
      }
    }
    report('network', { sunspec_ms: fastestOf(answers) });
    expectAlike(answers, DISCOVERY_DEADLINE_MS);
    expect(JSON.parse(answers.closed![0]!.body)).toMatchObject({ detail: 'errors.deviceUnreachable' });
  }, 120_000);

  it("refuses the server's own port even with loopback allowed", async () => {
    const port = new URL(server.url).port;
    await expect(
      api.post('devices/0', {
        plant_id: plantId,
        name: 'Self',
        type: 'camera',
        protocol: 'http',
        snapshot_url: `http://127.0.0.1:${port}/api/health`,
      }),
    ).rejects.toThrow(/400 .*validation\.networkNotAllowed/);
  });
});

describe('network: the production default refuses loopback', () => {
  let server: ConsoleProcess;
  let api: ApiClient;
  let plantId: number;

  beforeAll(async () => {
    server = await startConsole({ env: { DEVICE_NETWORKS_ALLOW: '' } });
    api = await adminClient(server.url);
    const { plants } = await api.get<{ plants: { id: number }[] }>('telemetry/catalog');
    plantId = plants[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('refuses loopback, link-local and host names resolving to them, naming the field', async () => {
    const refusedUrls = [
      'http://127.0.0.1:8554/snap.jpg',
      'http://localhost/snap.jpg',
      'http://[::1]/snap.jpg',
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const url of refusedUrls) {
      await expect(
        api.post('devices/0', {
          plant_id: plantId,
          name: 'Cam',
          type: 'camera',
          protocol: 'http',
          snapshot_url: url,
        }),
        url,
      ).rejects.toThrow(/400 .*"snapshot_url":\["validation\.networkNotAllowed"\]/);
    }
    await expect(
      api.post('devices/0', {
        plant_id: plantId,
        name: 'Inv',
        type: 'inverter',
        protocol: 'modbus_tcp',
        ip: '127.0.0.1',
        port: 502,
        slave_id: 1,
      }),
    ).rejects.toThrow(/400 .*"ip":\["validation\.networkNotAllowed"\]/);
    const settings = await api.get<{ device_networks: string[] }>('admin/settings');
    expect(settings.device_networks).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']);
    report('network', { refused_addresses: refusedUrls.length + 1 });
  });
});
