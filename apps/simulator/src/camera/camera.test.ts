import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawableText } from './font';
import { encodePng } from './png';
import { CAMERA_HEIGHT_PX, CAMERA_WIDTH_PX, renderCameraPng } from './scene';

/** CRC-32 (ISO 3309, as PNG uses it) bit by bit: an independent check of the encoder's chunks. */
function crc32Bitwise(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Decodes what encodePng writes (8-bit RGB, filter 0): checks signature, chunk CRCs and answers pixels. */
function decodePng(png: Buffer) {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(
      crc32Bitwise(png.subarray(at + 4, at + 8 + length)),
    );
    chunks.push({ type, data });
    at += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  expect([...ihdr.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  const raw = inflateSync(chunks[1]!.data);
  expect(raw.length).toBe((width * 3 + 1) * height);
  const pixel = (x: number, y: number) => {
    const i = y * (width * 3 + 1) + 1 + x * 3;
    return [raw[i], raw[i + 1], raw[i + 2]];
  };
  for (let y = 0; y < height; y++) expect(raw[y * (width * 3 + 1)]).toBe(0);
  return { width, height, pixel };
}

const mean = (png: Buffer) => {
  const { width, height, pixel } = decodePng(png);
  let sum = 0;
  for (let y = 20; y < height - 20; y++)
    for (let x = 0; x < width; x++) sum += pixel(x, y).reduce((a, b) => a! + b!, 0)!;
  return sum / (width * (height - 40) * 3);
};

describe('PNG encoder', () => {
  it('writes a PNG that decodes back to its pixels', () => {
    const rgb = new Uint8Array(3 * 2 * 3);
    rgb.set([255, 0, 0, 0, 255, 0, 0, 0, 255, 1, 2, 3, 250, 251, 252, 9, 8, 7]);
    const { width, height, pixel } = decodePng(encodePng(3, 2, rgb));
    expect([width, height]).toEqual([3, 2]);
    expect(pixel(0, 0)).toEqual([255, 0, 0]);
    expect(pixel(2, 0)).toEqual([0, 0, 255]);
    expect(pixel(1, 1)).toEqual([250, 251, 252]);
    expect(pixel(2, 1)).toEqual([9, 8, 7]);
  });

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow();
  });
});

describe('demo camera picture', () => {
  const view = {
    plantName: 'Konya Karapınar GES',
    timeZone: 'Europe/Istanbul',
    latitude: 37.7,
    longitude: 33.5,
  };
  // 2026-06-21 10:00 UTC is 13:00 in Istanbul (sun high); 22:00 UTC is 01:00 (night).
  const noon = Date.UTC(2026, 5, 21, 10, 0, 0);
  const night = Date.UTC(2026, 5, 21, 22, 0, 0);

  it('is deterministic and of the camera size', () => {
    const a = renderCameraPng({ ...view, tsMs: noon, poaWm2: 900, ghiWm2: 850, cloudCover: 0 });
    expect(renderCameraPng({ ...view, tsMs: noon, poaWm2: 900, ghiWm2: 850, cloudCover: 0 }).equals(a)).toBe(
      true,
    );
    const { width, height } = decodePng(a);
    expect([width, height]).toEqual([CAMERA_WIDTH_PX, CAMERA_HEIGHT_PX]);
  });

  it('is brighter under a clear noon sun than under clouds, and darkest at night', () => {
    const clear = mean(renderCameraPng({ ...view, tsMs: noon, poaWm2: 950, ghiWm2: 900, cloudCover: 0 }));
    const cloudy = mean(renderCameraPng({ ...view, tsMs: noon, poaWm2: 180, ghiWm2: 160, cloudCover: 0.9 }));
    const dark = mean(renderCameraPng({ ...view, tsMs: night, poaWm2: 0, ghiWm2: 0, cloudCover: 0 }));
    expect(clear).toBeGreaterThan(cloudy);
    expect(cloudy).toBeGreaterThan(dark);
  });

  it('burns in the name and the local time: the text bars differ when they do', () => {
    const a = decodePng(renderCameraPng({ ...view, tsMs: noon }));
    const b = decodePng(renderCameraPng({ ...view, plantName: 'Другo', tsMs: noon + 1000 }));
    const whites = (img: typeof a, y0: number) => {
      let n = 0;
      for (let y = y0; y < y0 + 20; y++)
        for (let x = 0; x < img.width; x++) if (img.pixel(x, y)[0] === 255) n++;
      return n;
    };
    expect(whites(a, 0)).toBeGreaterThan(100);
    expect(whites(a, 0)).not.toBe(whites(b, 0));
    expect(whites(a, CAMERA_HEIGHT_PX - 20)).toBeGreaterThan(100);
  });

  it('transliterates Turkish and Macedonian names for the bitmap font', () => {
    expect(drawableText('Karapınar İzmir Çeşme')).toBe('KARAPINAR IZMIR CESME');
    expect(drawableText('Штип Ѓорче')).toBe('SHTIP GJORCHE');
  });
});
