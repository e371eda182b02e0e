import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { E, type Device } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { SNAPSHOT_MAX_BYTES } from './camera-client';

/** The smallest bytes that pass as a JPEG (SOI marker) and a PNG (signature), with a payload to compare. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('frame-jpeg'),
  Buffer.from([0xff, 0xd9]),
]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png-body'),
]);

/** When every failed camera request of this file is answered. */
const DEADLINE_MS = 800;

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** A real HTTP server acting as a camera; every request it sees is recorded. */
async function startCamera() {
  const seen: Seen[] = [];
  const streamClosed: Promise<void>[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case '/snap.jpg':
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      case '/snap.png':
        return res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(PNG);
      case '/auth.jpg': {
        const expected = `Basic ${Buffer.from('viewer:pa:ss@1').toString('base64')}`;
        if (req.headers.authorization !== expected) return res.writeHead(401).end();
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      }
      case '/redirect':
        return res.writeHead(302, { location: '/snap.jpg' }).end();
      case '/svg':
        return res
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      case '/html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
      case '/lying.jpg':
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html><script>alert(1)</script>');
      case '/big-declared.jpg':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': SNAPSHOT_MAX_BYTES + 1 });
        return res.end(Buffer.concat([JPEG, Buffer.alloc(SNAPSHOT_MAX_BYTES + 1 - JPEG.length)]));
      case '/big-chunked.jpg': {
        // No Content-Length: the cap must hold while the bytes arrive.
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(JPEG);
        const chunk = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 6; i++) res.write(chunk);
        return res.end();
      }
      case '/error':
        return res.writeHead(500).end();
      case '/silent':
        return; // accepts, never answers
      case '/stream':
      case '/stream-bad-part':
      case '/stream-huge-part': {
        res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=camb' });
        streamClosed.push(new Promise((resolve) => res.on('close', () => resolve())));
        let n = 0;
        const timer = setInterval(() => {
          n++;
          if (path === '/stream-bad-part' && n === 2) {
            res.write('--camb\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>\r\n');
          } else if (path === '/stream-huge-part' && n === 2) {
            res.write(`--camb\r\nContent-Type: image/jpeg\r\nContent-Length: ${6 * 1024 * 1024}\r\n\r\n`);
          } else {
            // Alternate framing by length and by delimiter only, as cameras do both.
            const length = n % 2 ? `Content-Length: ${JPEG.length}\r\n` : '';
            res.write(`--camb\r\nContent-Type: image/jpeg\r\n${length}\r\n`);
            res.write(Buffer.concat([JPEG, Buffer.from('\r\n')]));
          }
        }, 30);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/stream-html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
      default:
        return res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    streamClosed,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: a camera that is down. */
async function closedPort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe(`camera proxy (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  let tree: Tree;
  let camera: Awaited<ReturnType<typeof startCamera>>;
  let appBase: string;

  beforeAll(async () => {
    // Every failure is answered at the deadline (camera-network.test.ts); a short one keeps this file quick.
    t = await createTestApp({
      deviceNetworks: {
        extraAllowed: ['127.0.0.0/8'],
        cameraDeadlineMs: DEADLINE_MS,
        modbusDeadlineMs: DEADLINE_MS,
      },
    });
    camera = await startCamera();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Cam');
    viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['dashboard'], ['view']) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    appBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await camera.close();
    await t.close();
  });
  beforeEach(() => {
    camera.seen.length = 0;
  });

  const makeCamera = (
    urls: { snapshot_url?: string | null; stream_url?: string | null },
    plantId = tree.plantId,
  ) =>
    save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: plantId,
      name: 'CAM',
      type: 'camera',
      protocol: 'http',
      ...urls,
    });
  const snapshot = (id: number, token = viewer.token, query?: Record<string, string>) =>
    t.http.get(`/api/cameras/${id}/snapshot`, { token, query });

  it('passes a JPEG and a PNG snapshot on, as images only, from exactly the stored URL', async () => {
    const jpeg = await makeCamera({ snapshot_url: `${camera.base}/snap.jpg?channel=101` });
    const res = await snapshot(jpeg.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(camera.seen.map((s) => s.url)).toEqual(['/snap.jpg?channel=101']);
    // Nothing of the browser's request reaches the camera: not its token, not its cookies.
    expect(camera.seen[0]!.headers.authorization).toBeUndefined();
    expect(camera.seen[0]!.headers.cookie).toBeUndefined();

    const png = await makeCamera({ snapshot_url: `${camera.base}/snap.png` });
    const pngRes = await snapshot(png.id);
    expect(pngRes.statusCode).toBe(200);
    expect(pngRes.headers['content-type']).toBe('image/png');
    expect(pngRes.rawPayload.equals(PNG)).toBe(true);
  });

  it('fetches nothing but the stored URL, whatever the query or path of our route says', async () => {
    const cam = await makeCamera({ snapshot_url: `${camera.base}/snap.jpg` });
    const other = encodeURIComponent(`${camera.base}/svg`);
    expect(
      (await snapshot(cam.id, viewer.token, { url: `${camera.base}/svg`, path: '/svg' })).statusCode,
    ).toBe(200);
    for (const url of [
      `/api/cameras/${cam.id}/snapshot/../../svg`,
      `/api/cameras/${cam.id}%2F..%2Fsvg/snapshot`,
      `/api/cameras/${other}/snapshot`,
      `/api/cameras/${cam.id}/snapshot/${other}`,
    ]) {
      const res = await t.http.get(url, { token: viewer.token });
      expect([400, 404], url).toContain(res.statusCode);
    }
    expect(camera.seen.map((s) => s.url)).toEqual(['/snap.jpg']);
  });

  it('uses the stored credentials on the server and never shows them in device reads', async () => {
    const stored = `${camera.base.replace('http://', 'http://viewer:pa%3Ass%401@')}/auth.jpg`;
    const cam = await makeCamera({ snapshot_url: stored });
    expect(cam.snapshot_url).toBe(`${camera.base.replace('http://', 'http://viewer:********@')}/auth.jpg`);
    const read = await t.http.get(`/api/devices/${cam.id}`, { token: admin.token });
    expect(read.body).not.toContain('pa%3Ass');
    const listed = await t.http.get('/api/devices', { token: admin.token, query: { type: 'camera' } });
    expect(listed.body).not.toContain('pa%3Ass');
    expect((await snapshot(cam.id)).statusCode).toBe(200);

    // Saving the form back with the mask keeps the password …
    await save(t, admin.token, `/api/devices/${cam.id}`, {
      plant_id: tree.plantId,
      name: 'CAM renamed',
      type: 'camera',
      protocol: 'http',
      snapshot_url: cam.snapshot_url,
    });
    expect((await snapshot(cam.id)).statusCode).toBe(200);
    // … but not for another host: the stored password must not travel to a new address.
    const moved = await t.http.post(
      `/api/devices/${cam.id}`,
      {
        plant_id: tree.plantId,
        name: 'CAM',
        type: 'camera',
        protocol: 'http',
        snapshot_url: 'http://viewer:********@attacker.example/auth.jpg',
      },
      { token: admin.token },
    );
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ errors: { snapshot_url: ['validation.invalidUrl'] } });
    const audit = await t.ctx.db.selectFrom('audit_log').select(['before', 'after']).execute();
    expect(JSON.stringify(audit)).not.toContain('pa%3Ass');
  });

  it('answers 404 for another company’s camera and for a device that is not a camera', async () => {
    const otherTree = await makeTree(t, admin.token, 'Other');
    const foreign = await makeCamera({ snapshot_url: `${camera.base}/snap.jpg` }, otherTree.plantId);
    for (const id of [foreign.id, tree.deviceId, 987654]) {
      const res = await snapshot(id);
      expect(res.statusCode).toBe(404);
      expect((await t.http.get(`/api/cameras/${id}/stream`, { token: viewer.token })).statusCode).toBe(404);
    }
    expect(camera.seen).toEqual([]);
  });

  it('refuses without a token (401) and without the dashboard page (403)', async () => {
    const cam = await makeCamera({ snapshot_url: `${camera.base}/snap.jpg` });
    const other = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['plant'], ['view']) });
    expect((await t.http.get(`/api/cameras/${cam.id}/snapshot`)).statusCode).toBe(401);
    expect((await snapshot(cam.id, other.token)).statusCode).toBe(403);
    expect((await t.http.get(`/api/cameras/${cam.id}/stream`, { token: other.token })).statusCode).toBe(403);
    expect(camera.seen).toEqual([]);
  });

  it('answers 502 with a translated problem when the camera is down or answers an error', async () => {
    for (const url of [`http://127.0.0.1:${await closedPort()}/snap.jpg`, `${camera.base}/error`]) {
      const cam = await makeCamera({ snapshot_url: url, stream_url: url });
      const res = await snapshot(cam.id);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ status: 502, detail: E.cameraUnreachable });
      expect(res.body).not.toContain('127.0.0.1');
      expect((await t.http.get(`/api/cameras/${cam.id}/stream`, { token: viewer.token })).statusCode).toBe(
        502,
      );
    }
  });

  it('gives up on a camera that does not answer by the deadline', async () => {
    const cam = await makeCamera({ snapshot_url: `${camera.base}/silent` });
    const started = Date.now();
    const res = await snapshot(cam.id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
  }, 15_000);

  it('does not follow a redirect', async () => {
    const cam = await makeCamera({ snapshot_url: `${camera.base}/redirect` });
    const res = await snapshot(cam.id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
    expect(camera.seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('refuses SVG, HTML and bytes that are not the image they claim to be', async () => {
    for (const path of ['/svg', '/html', '/lying.jpg']) {
      const cam = await makeCamera({ snapshot_url: `${camera.base}${path}` });
      const res = await snapshot(cam.id);
      expect(res.statusCode, path).toBe(502);
      expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).not.toContain('<script>');
    }
  });

  it('caps a snapshot at 5 MB, declared or not', async () => {
    for (const path of ['/big-declared.jpg', '/big-chunked.jpg']) {
      const cam = await makeCamera({ snapshot_url: `${camera.base}${path}` });
      const res = await snapshot(cam.id);
      expect(res.statusCode, path).toBe(502);
      expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
    }
  });

  it('answers 409 when the camera has no http(s) address (e.g. only rtsp://)', async () => {
    const cam = await makeCamera({ stream_url: 'rtsp://10.0.0.50:554/stream1' });
    expect((await snapshot(cam.id)).json()).toMatchObject({ status: 409, detail: E.cameraNotConfigured });
    const res = await t.http.get(`/api/cameras/${cam.id}/stream`, { token: viewer.token });
    expect(res.json()).toMatchObject({ status: 409, detail: E.cameraNotConfigured });
    expect(camera.seen).toEqual([]);
  });

  /** Reads the proxied stream with fetch, as the console does, until `enough` says so or it ends. */
  async function readStream(id: number, enough: (text: string) => boolean) {
    const controller = new AbortController();
    const res = await fetch(`${appBase}/api/cameras/${id}/stream`, {
      headers: { authorization: `Bearer ${viewer.token}` },
      signal: controller.signal,
    });
    let bytes = Buffer.alloc(0);
    let ended = false;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        bytes = Buffer.concat([bytes, value]);
        if (enough(bytes.toString('latin1'))) break;
      }
    }
    controller.abort();
    return { res, text: bytes.toString('latin1'), bytes, ended };
  }

  it('streams JPEG frames with fetch and closes the camera connection when the client goes away', async () => {
    const cam = await makeCamera({ stream_url: `${camera.base}/stream` });
    const closedBefore = camera.streamClosed.length;
    const { res, text, bytes } = await readStream(cam.id, (s) => s.split('frame-jpeg').length > 3);
    expect(res.status).toBe(200);
    const boundary = /boundary=(\S+)/.exec(res.headers.get('content-type') ?? '')?.[1];
    expect(res.headers.get('content-type')).toMatch(/^multipart\/x-mixed-replace; boundary=frame-/);
    expect(text).toContain(
      `--${boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: ${JPEG.length}\r\n\r\n`,
    );
    expect(bytes.includes(JPEG)).toBe(true);
    // The camera's own boundary never leaks: every part is re-encoded.
    expect(text).not.toContain('--camb');
    expect(camera.streamClosed.length).toBe(closedBefore + 1);
    await expect(
      Promise.race([
        camera.streamClosed[closedBefore],
        new Promise((_, reject) => setTimeout(() => reject(new Error('camera still connected')), 3_000)),
      ]),
    ).resolves.toBeUndefined();
  });

  it('ends the stream at a part that is not an image or is larger than a frame may be', async () => {
    for (const path of ['/stream-bad-part', '/stream-huge-part']) {
      const cam = await makeCamera({ stream_url: `${camera.base}${path}` });
      const { text, ended } = await readStream(cam.id, () => false);
      expect(ended, path).toBe(true);
      expect(text.split('frame-jpeg').length - 1, path).toBe(1);
      expect(text).not.toContain('<script>');
    }
  });

  it('refuses a stream that is not multipart/x-mixed-replace', async () => {
    const cam = await makeCamera({ stream_url: `${camera.base}/stream-html` });
    const res = await t.http.get(`/api/cameras/${cam.id}/stream`, { token: viewer.token });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: E.cameraUnreachable });
  });
});
