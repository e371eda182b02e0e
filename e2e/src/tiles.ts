import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A PNG of one flat colour (RGB), made here so that the tests need no image file. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface TileServer {
  /** The Leaflet URL template to give the console as MAP_TILE_URL. */
  template: string;
  /** Paths of the tiles asked for so far, as `z/x/y`. */
  requested: string[];
  close(): Promise<void>;
}

/**
 * A local map tile server answering every tile with the same pale PNG, so browser tests draw a base map
 * without the internet (CI has none) and can see which tiles were asked for.
 */
export async function startTileServer(): Promise<TileServer> {
  const tile = solidPng(256, 256, [214, 226, 236]);
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const match = /^\/(\d+)\/(-?\d+)\/(-?\d+)\.png$/.exec(req.url ?? '');
    if (!match) return res.writeHead(404).end();
    requested.push(`${match[1]}/${match[2]}/${match[3]}`);
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    template: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    requested,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let shared: Promise<TileServer> | undefined;
/** One tile server per test process, for every console started without its own MAP_TILE_URL. */
export function sharedTileServer(): Promise<TileServer> {
  shared ??= startTileServer();
  return shared;
}
