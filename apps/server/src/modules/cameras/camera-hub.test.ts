import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { until as waitUntil } from '../../test/collector-helpers';
import { MJPEG_MAX_FPS } from './camera-hub';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x6a, 0x70, 0x67, 0xff, 0xd9]);
/** The test camera sends this many frames a second, far above the cap. */
const CAMERA_FPS = 50;

/** A camera streaming MJPEG at CAMERA_FPS; counts TCP connections and open stream answers. */
async function startStreamingCamera() {
  let connections = 0;
  let open = 0;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=camb' });
    open++;
    const timer = setInterval(() => {
      res.write(`--camb\r\nContent-Type: image/jpeg\r\nContent-Length: ${JPEG.length}\r\n\r\n`);
      res.write(Buffer.concat([JPEG, Buffer.from('\r\n')]));
    }, 1000 / CAMERA_FPS);
    res.on('close', () => {
      clearInterval(timer);
      open--;
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    open: () => open,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One viewer reading the proxied stream; counts the frames it got (the JPEG's payload). */
function view(url: string, token: string) {
  const frameTimes: number[] = [];
  let request: http.ClientRequest | undefined;
  const done = new Promise<void>((resolve, reject) => {
    request = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        const parts = text.split('jpg');
        for (let i = 0; i < parts.length - 1; i++) frameTimes.push(performance.now());
        text = parts[parts.length - 1]!;
      });
      res.on('close', () => resolve());
    });
    request.on('error', () => resolve());
  });
  return { frameTimes, done, stop: () => request?.destroy() };
}

describe(`one camera connection for every viewer (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  let tree: Tree;
  let camera: Awaited<ReturnType<typeof startStreamingCamera>>;
  let appBase: string;

  beforeAll(async () => {
    t = await createTestApp();
    camera = await startStreamingCamera();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Hub');
    viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['dashboard'], ['view']) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    appBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await camera.close();
    await t.close();
  });

  it('serves N viewers from one upstream connection, caps the frame rate, and closes it after the last', async () => {
    const device = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'CAM',
      type: 'camera',
      protocol: 'http',
      stream_url: `${camera.base}/stream`,
    });
    const url = `${appBase}/api/cameras/${device.id}/stream`;
    const viewers = Array.from({ length: 6 }, (_, i) => view(url, i % 2 ? viewer.token : admin.token));
    const windowMs = 2_000;
    await new Promise((r) => setTimeout(r, windowMs));
    expect(camera.connections()).toBe(1);
    expect(camera.open()).toBe(1);
    for (const v of viewers) {
      expect(v.frameTimes.length).toBeGreaterThanOrEqual(3);
      // The cap: at most MJPEG_MAX_FPS a second (one more for the window's edges), the camera sends 50.
      expect(v.frameTimes.length).toBeLessThanOrEqual((MJPEG_MAX_FPS * windowMs) / 1000 + 1);
    }
    // A viewer that joins later rides the same connection.
    const late = view(url, viewer.token);
    await waitUntil(() => late.frameTimes.length >= 2, 3_000, 20);
    expect(camera.connections()).toBe(1);
    for (const v of viewers) v.stop();
    await new Promise((r) => setTimeout(r, 300));
    // One viewer left: the camera is still connected.
    expect(camera.open()).toBe(1);
    late.stop();
    await waitUntil(() => camera.open() === 0, 3_000, 20);
    await Promise.allSettled([...viewers, late].map((v) => v.done));
  });
});
