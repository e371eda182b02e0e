/** The only image types the camera proxy passes on. */
export type ImageType = 'image/jpeg' | 'image/png';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The image type the bytes start with (JPEG SOI marker or PNG signature), or null. */
export function imageTypeOf(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  return null;
}

export interface Frame {
  type: ImageType;
  data: Buffer;
}

/** One part of a multipart/x-mixed-replace stream, with its length so a reader need not search. */
export function encodeFrame(boundary: string, type: ImageType, data: Buffer): Buffer {
  const head = `--${boundary}\r\nContent-Type: ${type}\r\nContent-Length: ${data.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), data, Buffer.from('\r\n', 'latin1')]);
}

/** Part headers longer than this are not a camera's. */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/**
 * Reads the parts of a multipart/x-mixed-replace body (RFC 2046 §5.1) as they arrive. A part is framed by
 * its Content-Length when it has one, otherwise by the next delimiter. Throws when a part is not a JPEG or
 * PNG (by header and first bytes) or grows beyond `maxFrameBytes`, so nothing unbounded is buffered.
 */
export class MultipartFrameReader {
  private buffer: Buffer = Buffer.alloc(0);
  private state: 'delimiter' | 'headers' | 'body' | 'done' = 'delimiter';
  private partType = '';
  private partLength: number | null = null;
  private readonly delimiter: Buffer;
  private readonly bodyEnd: Buffer;

  constructor(
    boundary: string,
    private readonly maxFrameBytes: number,
  ) {
    this.delimiter = Buffer.from(`--${boundary}`, 'latin1');
    this.bodyEnd = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Feeds bytes; answers the frames completed by them. */
  push(chunk: Buffer): Frame[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const frames: Frame[] = [];
    for (;;) {
      if (this.state === 'done') {
        this.buffer = Buffer.alloc(0);
        return frames;
      }
      if (this.state === 'delimiter') {
        const at = this.buffer.indexOf(this.delimiter);
        if (at < 0) {
          // Wait for more; bytes that never show a delimiter are dropped once they pass the frame cap.
          if (this.buffer.length > this.maxFrameBytes) throw new Error('no delimiter');
          return frames;
        }
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        this.state = 'headers';
      }
      if (this.state === 'headers') {
        if (this.buffer.length >= 2 && this.buffer.subarray(0, 2).toString('latin1') === '--') {
          this.state = 'done';
          continue;
        }
        const end = this.buffer.indexOf(CRLFCRLF);
        if (end < 0) {
          if (this.buffer.length > MAX_HEADER_BYTES) throw new Error('part headers too long');
          return frames;
        }
        const headers = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        this.buffer = this.buffer.subarray(end + 4);
        this.partType = '';
        this.partLength = null;
        for (const line of headers) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          if (name === 'content-type') this.partType = value.split(';')[0]!.trim().toLowerCase();
          if (name === 'content-length' && /^\d+$/.test(value)) this.partLength = Number(value);
        }
        if (this.partLength !== null && this.partLength > this.maxFrameBytes)
          throw new Error('frame too large');
        this.state = 'body';
      }
      if (this.state === 'body') {
        let data: Buffer;
        if (this.partLength !== null) {
          if (this.buffer.length < this.partLength) return frames;
          data = this.buffer.subarray(0, this.partLength);
          this.buffer = this.buffer.subarray(this.partLength);
        } else {
          const at = this.buffer.indexOf(this.bodyEnd);
          if (at < 0) {
            if (this.buffer.length > this.maxFrameBytes) throw new Error('frame too large');
            return frames;
          }
          data = this.buffer.subarray(0, at);
          this.buffer = this.buffer.subarray(at + 2);
        }
        frames.push(this.checked(data));
        this.state = 'delimiter';
      }
    }
  }

  private checked(data: Buffer): Frame {
    const type = imageTypeOf(data);
    const declared = this.partType === 'image/jpg' ? 'image/jpeg' : this.partType;
    if (type === null || type !== declared)
      throw new Error(`part of type ${this.partType || '(none)'} refused`);
    // A copy: the frame outlives the buffer it was cut from.
    return { type, data: Buffer.from(data) };
  }
}
