import { describe, expect, it } from 'vitest';
import { encodeFrame, imageTypeOf, MultipartFrameReader } from './mjpeg';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x01, 0x02, 0xff, 0xd9]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);

describe('MJPEG multipart frames', () => {
  it('knows JPEG and PNG by their first bytes, and nothing else', () => {
    expect(imageTypeOf(JPEG)).toBe('image/jpeg');
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(Buffer.from('<svg/>'))).toBeNull();
    expect(imageTypeOf(Buffer.from([0xff, 0xd8]))).toBeNull();
  });

  it('reads parts framed by length or by delimiter, whatever the chunking', () => {
    const body = Buffer.concat([
      Buffer.from('preamble\r\n--b\r\nContent-Type: image/jpeg\r\nContent-Length: 8\r\n\r\n'),
      JPEG,
      Buffer.from('\r\n--b\r\ncontent-type: image/png\r\n\r\n'),
      PNG,
      Buffer.from('\r\n--b\r\nContent-Type: image/jpg\r\n\r\n'),
      JPEG,
      Buffer.from('\r\n--b--\r\n'),
    ]);
    for (const size of [1, 3, 7, body.length]) {
      const reader = new MultipartFrameReader('b', 1024);
      const frames = [];
      for (let i = 0; i < body.length; i += size) frames.push(...reader.push(body.subarray(i, i + size)));
      expect(
        frames.map((f) => f.type),
        `chunks of ${size}`,
      ).toEqual(['image/jpeg', 'image/png', 'image/jpeg']);
      expect(frames[1]!.data.equals(PNG)).toBe(true);
      expect(frames[2]!.data.equals(JPEG)).toBe(true);
    }
  });

  it('refuses a part that is not an image, or claims one type and is another', () => {
    const html = new MultipartFrameReader('b', 1024);
    expect(() => html.push(Buffer.from('--b\r\nContent-Type: text/html\r\n\r\n<script>\r\n--b'))).toThrow();
    const lying = new MultipartFrameReader('b', 1024);
    const part = Buffer.concat([
      Buffer.from('--b\r\nContent-Type: image/png\r\n\r\n'),
      JPEG,
      Buffer.from('\r\n--b'),
    ]);
    expect(() => lying.push(part)).toThrow();
  });

  it('refuses a part larger than the frame cap before buffering it', () => {
    const declared = new MultipartFrameReader('b', 100);
    expect(() =>
      declared.push(Buffer.from('--b\r\nContent-Type: image/jpeg\r\nContent-Length: 101\r\n\r\n')),
    ).toThrow();
    const open = new MultipartFrameReader('b', 100);
    open.push(Buffer.concat([Buffer.from('--b\r\nContent-Type: image/jpeg\r\n\r\n'), JPEG]));
    expect(() => open.push(Buffer.alloc(100))).toThrow();
  });

  it('encodes a part that the reader reads back', () => {
    const reader = new MultipartFrameReader('x', 1024);
    const frames = reader.push(
      Buffer.concat([encodeFrame('x', 'image/png', PNG), encodeFrame('x', 'image/jpeg', JPEG)]),
    );
    expect(frames.map((f) => f.data)).toEqual([PNG, JPEG]);
  });
});
