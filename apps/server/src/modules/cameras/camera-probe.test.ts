import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CollectionHealthAnswer,
  PlantDeviceStatusAnswer,
  PlantsOverviewAnswer,
  Topology,
} from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { CAMERA_PROBE_INTERVAL_MS } from './camera-probe';

/** The smallest bytes that pass as a JPEG: the SOI marker, a payload, the EOI marker. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('probe'),
  Buffer.from([0xff, 0xd9]),
]);

/** The probe's interval in this file: short, so its own timer drives it while the test waits for states. */
const TEST_INTERVAL_MS = 150;
/** How long a state may take to arrive on a loaded machine; the waits end as soon as it does. */
const WAIT_MS = 20_000;

/** Longitude of local solar noon at the equator now: a plant there is in daylight (device-status.test.ts). */
const noonLongitude = (ms: number) => {
  const utcHours = (ms % 86_400_000) / 3_600_000;
  return (((12 - utcHours) * 15 + 540) % 360) - 180;
};

/** A real camera on loopback: answers a JPEG at /snap.jpg, and records every request it sees. */
async function startCamera() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/snap.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    return res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it holds (no fixed sleep): the probe's timer, not the test, moves the state. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe(`camera probe (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  let tree: Tree;
  let camera: Awaited<ReturnType<typeof startCamera>>;
  let live: number;
  let addressless: number;
  let rebound: number;

  const statusOf = async (deviceId: number) => {
    const res = await t.http.get(`/api/plants/${tree.plantId}/devices/status`, { token: viewer.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantDeviceStatusAnswer>().items.find((i) => i.device_id === deviceId)!;
  };
  const healthOf = async (deviceId: number) => {
    const res = await t.http.get('/api/admin/collection-health', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CollectionHealthAnswer>().items.find((i) => i.device_id === deviceId)!;
  };
  const addCamera = async (name: string, urls: { snapshot_url?: string; stream_url?: string }) =>
    (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        name,
        type: 'camera',
        protocol: 'http',
        ...urls,
      })
    ).id;

  beforeAll(async () => {
    camera = await startCamera();
    t = await createTestApp({}, { cameraProbe: { intervalMs: TEST_INTERVAL_MS } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Probe');
    viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['single_line'], ['view']) });
    await save(t, admin.token, `/api/plants/${tree.plantId}`, {
      field_id: tree.fieldId,
      name: 'Probe Plant',
      time_zone: 'Europe/Istanbul',
      latitude: 0,
      longitude: noonLongitude(Date.now()),
    });
    // Cameras are saved only on allowed addresses: the test cameras listen on loopback, which the test app
    // allows (DEVICE_NETWORKS_ALLOW).
    live = await addCamera('CAM-live', { snapshot_url: `http://127.0.0.1:${camera.port}/snap.jpg` });
    addressless = await addCamera('CAM-rtsp', { stream_url: 'rtsp://127.0.0.1:554/Streaming/101' });
    rebound = await addCamera('CAM-rebound', {});
    // An address that is not what was checked at save (as a name that resolves anew could be): 0.0.0.0
    // reaches this host on Linux, so only the connection-time check keeps the probe from fetching it.
    await t.ctx.db
      .updateTable('devices')
      .set({ snapshot_url: `http://0.0.0.0:${camera.port}/snap.jpg?rebound` })
      .where('id', '=', rebound)
      .execute();
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await t?.close();
    await camera?.close();
  });

  it('answers a camera that serves an image online in the device status, the diagram and the health list', async () => {
    await until('the live camera online', async () => (await statusOf(live)).communication === 'online');
    const status = await statusOf(live);
    expect(status).toMatchObject({ status: 'normal', communication: 'online' });
    expect(Date.parse(status.last_data_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(camera.seen).toContain('/snap.jpg');
    // The single-line diagram draws the camera from the topology and colours it from this same answer.
    const topology = await t.http.get(`/api/plants/${tree.plantId}/topology`, { token: viewer.token });
    expect(topology.statusCode, topology.body).toBe(200);
    expect(topology.json<Topology>().nodes.some((n) => n.device_id === live)).toBe(true);
    expect(await healthOf(live)).toMatchObject({ communication: 'online', has_problem: false });
    // The plant's own link stays its telemetry devices': its inverter never reported, and a picture does
    // not measure production (docs/architecture.md, "From a device to a screen").
    const overview = await t.http.get('/api/plants/overview', { token: admin.token });
    expect(overview.statusCode, overview.body).toBe(200);
    const plant = overview.json<PlantsOverviewAnswer>().items.find((p) => p.plant_id === tree.plantId);
    expect(plant).toMatchObject({ status: 'offline', last_data_at: null });
  });

  it('calls a camera never probed unknown, not offline', async () => {
    const status = await statusOf(addressless);
    expect(status).toMatchObject({ status: null, communication: 'unknown', last_data_at: null });
    expect(await healthOf(addressless)).toMatchObject({ communication: 'unknown', has_problem: false });
  });

  it('never fetches an address the device networks refuse: no image, offline', async () => {
    await until('the refused camera probed', async () => (await statusOf(rebound)).communication === 'lost');
    expect(await statusOf(rebound)).toMatchObject({ status: 'offline', last_data_at: null });
    expect(camera.seen.filter((url) => url.includes('rebound'))).toEqual([]);
    const [row] = await t.ctx.db
      .selectFrom('camera_probes')
      .select(['last_image_at', 'last_error'])
      .where('device_id', '=', rebound)
      .execute();
    expect(row).toMatchObject({ last_image_at: null });
    expect(row!.last_error).toMatch(/refused|outside|0\.0\.0\.0/);
  });

  it('turns a camera that stopped answering offline only after three probe intervals without an image', async () => {
    await camera.close();
    const probeOf = async () =>
      (
        await t.ctx.db
          .selectFrom('camera_probes')
          .select(['last_image_at', 'last_error'])
          .where('device_id', '=', live)
          .execute()
      )[0];
    // Probes after the camera went away fail; the last image stays, and within the window so does online.
    await until('a failed probe of the closed camera', async () => !!(await probeOf())?.last_error);
    const lastImageMs = Number((await probeOf())!.last_image_at);
    expect((await statusOf(live)).communication).toBe('online');
    try {
      t.ctx.now = () => lastImageMs + 3 * CAMERA_PROBE_INTERVAL_MS - 1_000;
      expect((await statusOf(live)).communication).toBe('online');
      // Three intervals after its last image: offline, and the time of that image still shown.
      t.ctx.now = () => lastImageMs + 3 * CAMERA_PROBE_INTERVAL_MS + 1_000;
      const after = await statusOf(live);
      expect(after).toMatchObject({ status: 'offline', communication: 'lost' });
      expect(Date.parse(after.last_data_at!)).toBe(lastImageMs);
      expect(await healthOf(live)).toMatchObject({ communication: 'lost', has_problem: true });
    } finally {
      t.ctx.now = Date.now;
    }
  });

  it('stops probing when the app closes', async () => {
    const again = await startCamera();
    await t.ctx.db
      .updateTable('devices')
      .set({ snapshot_url: `http://127.0.0.1:${again.port}/snap.jpg` })
      .where('id', '=', live)
      .execute();
    try {
      await until('a probe of the new camera', () => Promise.resolve(again.seen.length > 0));
      closed = true;
      await t.close();
      const seen = again.seen.length;
      // Three intervals of a running probe would have asked again; a stopped one does not.
      await new Promise((resolve) => setTimeout(resolve, 4 * TEST_INTERVAL_MS));
      expect(again.seen.length).toBe(seen);
    } finally {
      await again.close();
    }
  });
});
