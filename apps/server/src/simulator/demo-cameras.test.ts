import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualPlant, renderCameraPng } from '@solar/simulator';
import { makeUser, save, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { isDemoCameraAddress, startDemoCameras, type DemoCameras } from './demo-cameras';
import { loadPlantTopology } from './simulator.repository';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe(`demo cameras (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let cameras: DemoCameras;
  let realCameraId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    const plant = await t.ctx.db.selectFrom('plants').select('id').orderBy('id').executeTakeFirstOrThrow();
    // A camera someone pointed at a real address keeps it.
    realCameraId = (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: plant.id,
        name: 'CAM-REAL',
        type: 'camera',
        protocol: 'http',
        snapshot_url: 'http://192.168.7.20/snapshot.jpg',
      })
    ).id;
    const plants = (await loadPlantTopology(t.ctx.db)).map((d) => createVirtualPlant(d, { seed: 1 }));
    for (const p of plants) p.sample(t.ctx.now());
    cameras = await startDemoCameras(t.ctx, t.app.log, plants, renderCameraPng, {
      frameIntervalMs: 50,
    });
  });
  afterAll(async () => {
    await cameras.stop();
    await t.close();
  });

  const demoCameras = () =>
    t.ctx.db
      .selectFrom('devices')
      .select(['id', 'snapshot_url', 'stream_url'])
      .where('type', '=', 'camera')
      .orderBy('id')
      .execute();

  it('points every seeded demo camera at the loopback camera server, and leaves a real one alone', async () => {
    const rows = await demoCameras();
    const demo = rows.filter((r) => r.id !== realCameraId);
    expect(demo.length).toBeGreaterThanOrEqual(6);
    for (const r of demo) {
      expect(r.snapshot_url).toBe(`${cameras.baseUrl}/demo-camera/${r.id}/snapshot.png`);
      expect(r.stream_url).toBe(`${cameras.baseUrl}/demo-camera/${r.id}/stream`);
    }
    expect(cameras.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(rows.find((r) => r.id === realCameraId)?.snapshot_url).toBe('http://192.168.7.20/snapshot.jpg');
  });

  it('shows a demo camera through the proxy as a PNG', async () => {
    const [camera] = await demoCameras();
    const res = await t.http.get(`/api/cameras/${camera!.id}/snapshot`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('streams PNG frames through the proxy', async () => {
    const [camera] = await demoCameras();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    // A plain connection of its own, closed at the end (the proxy's fetch streaming is tested in cameras.test.ts).
    const text = await new Promise<string>((resolve, reject) => {
      const request = http.get(
        `http://127.0.0.1:${port}/api/cameras/${camera!.id}/stream`,
        { agent: false, headers: { authorization: `Bearer ${admin.token}` } },
        (res) => {
          expect(res.statusCode).toBe(200);
          let seen = '';
          res.on('data', (chunk: Buffer) => {
            seen += chunk.toString('latin1');
            if (seen.split('Content-Type: image/png').length >= 3) {
              request.destroy();
              resolve(seen);
            }
          });
        },
      );
      request.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
    });
    expect(text.split('Content-Type: image/png').length).toBeGreaterThanOrEqual(3);
  });

  it('answers 404 for anything but a known camera', async () => {
    for (const path of ['/demo-camera/999999/snapshot.png', '/demo-camera/1/other']) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        http
          .get(`${cameras.baseUrl}${path}`, { agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode);
          })
          .on('error', reject);
      });
      expect(status, path).toBe(404);
    }
  });

  it('takes over only demo addresses', () => {
    expect(isDemoCameraAddress(null)).toBe(true);
    expect(isDemoCameraAddress('http://10.21.1.50/ISAPI/Streaming/channels/101/picture')).toBe(true);
    expect(isDemoCameraAddress('rtsp://10.21.1.50:554/Streaming/Channels/101')).toBe(true);
    expect(isDemoCameraAddress('http://127.0.0.1:41234/demo-camera/7/stream')).toBe(true);
    expect(isDemoCameraAddress('http://10.21.1.51/ISAPI/x')).toBe(false);
    expect(isDemoCameraAddress('http://192.168.7.20/snapshot.jpg')).toBe(false);
  });
});
