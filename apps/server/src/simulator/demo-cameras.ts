import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { renderCameraPng, VirtualPlant } from '@solar/simulator';
import type { AppContext } from '../context';
import { demoCameraDevices, pointCameraAt } from './simulator.repository';

/** A new frame of the demo stream this often. */
export const DEMO_FRAME_INTERVAL_MS = 3_000;
/** Weather older than this (e.g. while the history is back-filled) is not today's: a clear sky is drawn. */
const WEATHER_FRESH_MS = 10 * 60_000;
const PATH_PREFIX = '/demo-camera/';

export interface DemoCameras {
  /** http://127.0.0.1:<port>, chosen at start. */
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Whether a camera address is the demo's to take over: none yet, a previous start's demo camera, or the
 * fictional Hikvision address the demo seed gives (10.2x.1.50, apps/server/src/seed/organisation.ts). A
 * real address someone typed in is left alone.
 */
export function isDemoCameraAddress(url: string | null): boolean {
  if (url === null) return true;
  return (
    /^http:\/\/127\.0\.0\.1:\d+\/demo-camera\//.test(url) ||
    /^(http|rtsp):\/\/10\.2\d\.1\.50(:\d+)?\/(ISAPI|Streaming)\//.test(url)
  );
}

/**
 * The demo's cameras, served by the in-process simulator on 127.0.0.1 at a port chosen at start: a
 * separate loopback server rather than a route of our own, so nothing outside this host reaches it, no
 * unauthenticated path is added to the console's origin, and the proxy fetches it exactly as it fetches a
 * real camera. On start the demo camera devices are pointed at it (`/demo-camera/<device id>/snapshot.png`
 * and `/stream`). The picture follows the plant's simulated weather.
 */
export async function startDemoCameras(
  ctx: Pick<AppContext, 'db' | 'now'>,
  log: FastifyBaseLogger,
  plants: readonly VirtualPlant[],
  /** The simulator's camera picture (the package is optional: load-simulator.ts). */
  renderPng: typeof renderCameraPng,
  options: { frameIntervalMs?: number } = {},
): Promise<DemoCameras> {
  const frameIntervalMs = options.frameIntervalMs ?? DEMO_FRAME_INTERVAL_MS;
  const byPlant = new Map(plants.map((p) => [Number(p.definition.plantId), p]));
  const cameras = new Map((await demoCameraDevices(ctx.db, [...byPlant.keys()])).map((c) => [c.id, c]));

  const render = (deviceId: number): Buffer | null => {
    const camera = cameras.get(deviceId);
    const plant = camera && byPlant.get(camera.plant_id);
    if (!camera || !plant) return null;
    const now = ctx.now();
    const weather = plant.weather();
    const fresh = weather && Math.abs(now - weather.tsMs) <= WEATHER_FRESH_MS ? weather : undefined;
    return renderPng({
      plantName: camera.plant_name,
      timeZone: plant.definition.timeZone,
      latitude: plant.definition.latitude,
      longitude: plant.definition.longitude,
      tsMs: now,
      poaWm2: fresh?.poaWm2,
      ghiWm2: fresh?.ghiWm2,
      cloudCover: fresh?.cloudCover,
    });
  };

  const server = http.createServer((req, res) => {
    const match = /^\/demo-camera\/(\d+)\/(snapshot\.png|stream)$/.exec(req.url ?? '');
    const first = match ? render(Number(match[1])) : null;
    if (!match || !first || req.method !== 'GET') return res.writeHead(404).end();
    if (match[2] === 'snapshot.png') {
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': first.length }).end(first);
    }
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=demo-frame' });
    const send = (png: Buffer) => {
      res.write(`--demo-frame\r\nContent-Type: image/png\r\nContent-Length: ${png.length}\r\n\r\n`);
      res.write(png);
      res.write('\r\n');
    };
    send(first);
    const timer = setInterval(() => {
      const png = render(Number(match[1]));
      if (png) send(png);
    }, frameIntervalMs);
    res.on('close', () => clearInterval(timer));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let pointed = 0;
  for (const camera of cameras.values()) {
    if (!isDemoCameraAddress(camera.snapshot_url) || !isDemoCameraAddress(camera.stream_url)) continue;
    await pointCameraAt(ctx.db, camera.id, {
      snapshot_url: `${baseUrl}${PATH_PREFIX}${camera.id}/snapshot.png`,
      stream_url: `${baseUrl}${PATH_PREFIX}${camera.id}/stream`,
    });
    pointed++;
  }
  log.info({ baseUrl, cameras: pointed }, 'simulator: demo cameras serving');

  return {
    baseUrl,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
