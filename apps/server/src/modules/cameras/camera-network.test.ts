import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E, V, type Device, type SystemSettings } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0xff, 0xd9]);
const DEADLINE_MS = 600;

/** A real HTTP server: /snap.jpg is a camera's snapshot, anything else a web page; requests are counted. */
async function startHttp() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    if (req.url === '/snap.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Accepts connections and never says a word: a port that is open but silent. */
async function startSilent() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const cameraBody = (plantId: number, urls: { snapshot_url?: string; stream_url?: string }) => ({
  plant_id: plantId,
  name: 'CAM',
  type: 'camera',
  protocol: 'http',
  ...urls,
});

describe(`device networks: the default refuses loopback and what is outside the setting (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let cam: Awaited<ReturnType<typeof startHttp>>;

  beforeAll(async () => {
    // No allowance: the production default.
    t = await createTestApp({
      deviceNetworks: { extraAllowed: [], cameraDeadlineMs: DEADLINE_MS, modbusDeadlineMs: DEADLINE_MS },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Net');
    cam = await startHttp();
  });
  afterAll(async () => {
    await cam.close();
    await t.close();
  });

  const saveDevice = (body: unknown) => t.http.post('/api/devices/0', body, { token: admin.token });

  it('refuses loopback, link-local, unspecified and multicast camera addresses when saved, naming the field', async () => {
    const refused = [
      `http://127.0.0.1:${cam.port}/snap.jpg`,
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/snap.jpg',
      'http://[fe80::1]/snap.jpg',
      'http://0.0.0.0/snap.jpg',
      'http://224.0.0.1/snap.jpg',
      'http://[::ffff:127.0.0.1]/snap.jpg',
      'http://localhost/snap.jpg',
      // Outside the default list (private networks only).
      'http://8.8.8.8/snap.jpg',
    ];
    for (const url of refused) {
      for (const field of ['snapshot_url', 'stream_url'] as const) {
        const res = await saveDevice(cameraBody(tree.plantId, { [field]: url }));
        expect(res.statusCode, `${field} ${url}`).toBe(400);
        expect(res.json<{ errors: Record<string, string[]> }>().errors, url).toEqual({
          [field]: [V.networkNotAllowed],
        });
      }
    }
    const ok = await saveDevice(cameraBody(tree.plantId, { snapshot_url: 'http://192.168.1.64/snap.jpg' }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a Modbus TCP host outside the device networks (field ip)', async () => {
    for (const ip of ['127.0.0.1', '169.254.1.1', '::1', '0.0.0.0', '8.8.8.8']) {
      const res = await saveDevice({
        plant_id: tree.plantId,
        name: 'INV',
        type: 'inverter',
        protocol: 'modbus_tcp',
        ip,
        port: 502,
        slave_id: 1,
      });
      expect(res.statusCode, ip).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({ ip: [V.networkNotAllowed] });
    }
  });

  it('refuses at connection time an address stored before the setting, also behind a host name', async () => {
    const device = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      cameraBody(tree.plantId, { snapshot_url: 'http://10.9.9.9/snap.jpg' }),
    );
    for (const url of [`http://127.0.0.1:${cam.port}/snap.jpg`, `http://localhost:${cam.port}/snap.jpg`]) {
      await t.ctx.db.updateTable('devices').set({ snapshot_url: url }).where('id', '=', device.id).execute();
      const res = await t.http.get(`/api/cameras/${device.id}/snapshot`, { token: admin.token });
      expect(res.statusCode, url).toBe(502);
      expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
    }
    expect(cam.requests()).toBe(0);
  });

  it('lets the administrator set the networks: a CIDR list, checked, and applied to the next save', async () => {
    const get = await t.http.get('/api/admin/settings', { token: admin.token });
    const settings = get.json<SystemSettings>();
    expect(settings.device_networks).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']);
    const { smtp_password_set: _s, updated_at: _u, ...body } = settings;
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fe80::/129', 'x', '10.0.0.1/8 ']) {
      const res = await t.http.post(
        '/api/admin/settings',
        { ...body, device_networks: [bad] },
        { token: admin.token },
      );
      expect(res.statusCode, bad).toBe(400);
      expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)[0]).toMatch(
        /^device_networks/,
      );
    }
    const saved = await t.http.post(
      '/api/admin/settings',
      { ...body, device_networks: ['8.8.8.0/24', '2001:db8::/32'] },
      { token: admin.token },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<SystemSettings>().device_networks).toEqual(['8.8.8.0/24', '2001:db8::/32']);
    const pub = await saveDevice(cameraBody(tree.plantId, { snapshot_url: 'http://8.8.8.8/snap.jpg' }));
    expect(pub.statusCode, pub.body).toBe(200);
    const priv = await saveDevice(cameraBody(tree.plantId, { snapshot_url: 'http://192.168.1.64/snap.jpg' }));
    expect(priv.statusCode).toBe(400);
    // Loopback stays refused whatever the list says.
    const loop = await t.http.post(
      '/api/admin/settings',
      { ...body, device_networks: ['0.0.0.0/0'] },
      { token: admin.token },
    );
    expect(loop.statusCode, loop.body).toBe(200);
    const lo = await saveDevice(cameraBody(tree.plantId, { snapshot_url: 'http://127.0.0.1/snap.jpg' }));
    expect(lo.statusCode).toBe(400);
    // A non-administrator cannot change it.
    const holder = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['admin_panel']) });
    const denied = await t.http.post('/api/admin/settings', body, { token: holder.token });
    expect(denied.statusCode).toBe(403);
  });
});

describe(`camera failures look alike (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let web: Awaited<ReturnType<typeof startHttp>>;
  let silent: Awaited<ReturnType<typeof startSilent>>;
  let ownPort: number;

  beforeAll(async () => {
    // Loopback allowed explicitly, as the tests' configuration does, so that the test servers are reachable.
    t = await createTestApp({
      deviceNetworks: {
        extraAllowed: ['127.0.0.0/8'],
        cameraDeadlineMs: DEADLINE_MS,
        modbusDeadlineMs: DEADLINE_MS,
      },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Same');
    web = await startHttp();
    silent = await startSilent();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    ownPort = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await web.close();
    await silent.close();
    await t.close();
  });

  it('answers a closed port, a silent port, a web page and our own port with the same status, body and time', async () => {
    const targets = {
      closed: `http://127.0.0.1:${await closedPort()}/snap.jpg`,
      silent: `http://127.0.0.1:${silent.port}/snap.jpg`,
      web: `http://127.0.0.1:${web.port}/index.html`,
      own: `http://127.0.0.1:${ownPort}/api/health`,
    };
    const answers: Record<string, { status: number; body: string; ms: number }> = {};
    for (const [name, url] of Object.entries(targets)) {
      const device = await save<Device>(
        t,
        admin.token,
        '/api/devices/0',
        cameraBody(tree.plantId, { snapshot_url: 'http://10.9.9.9/snap.jpg' }),
      );
      // Written directly: our own port is refused when saved already.
      await t.ctx.db
        .updateTable('devices')
        .set({ snapshot_url: url, stream_url: url })
        .where('id', '=', device.id)
        .execute();
      for (const kind of ['snapshot', 'stream']) {
        const started = performance.now();
        const res = await t.http.get(`/api/cameras/${device.id}/${kind}`, { token: admin.token });
        answers[`${name} ${kind}`] = {
          status: res.statusCode,
          body: res.body,
          ms: performance.now() - started,
        };
      }
    }
    const first = Object.values(answers)[0]!;
    expect(first.status).toBe(502);
    expect(JSON.parse(first.body)).toEqual({
      status: 502,
      title: 'Bad Gateway',
      detail: E.cameraUnreachable,
    });
    for (const [name, a] of Object.entries(answers)) {
      expect({ name, status: a.status, body: a.body }).toEqual({ name, status: 502, body: first.body });
      // Every failure is answered at the deadline, not before, and not much after.
      expect(a.ms, name).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(a.ms, name).toBeLessThan(DEADLINE_MS + 250);
    }
  });

  it('refuses our own listening port when saved, even with loopback allowed', async () => {
    const res = await t.http.post(
      '/api/devices/0',
      cameraBody(tree.plantId, { snapshot_url: `http://127.0.0.1:${ownPort}/api/health` }),
      { token: admin.token },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { snapshot_url: [V.networkNotAllowed] } });
  });

  it('still serves a camera that answers, at once', async () => {
    const device = await save<Device>(
      t,
      admin.token,
      '/api/devices/0',
      cameraBody(tree.plantId, { snapshot_url: `http://127.0.0.1:${web.port}/snap.jpg` }),
    );
    const started = performance.now();
    const res = await t.http.get(`/api/cameras/${device.id}/snapshot`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS);
  });
});
