import { describe, expect, it } from 'vitest';
import { PubackQueue, pubackBytes, type PubackStream } from './puback-queue';

/** A stream that records what is written to it, as packet ids of PUBACKs. */
function recordingStream() {
  const writes: number[][] = [];
  const stream: PubackStream & { writable: boolean } = {
    writable: true,
    write(bytes: Uint8Array) {
      const ids: number[] = [];
      for (let i = 0; i < bytes.length; i += 4) {
        // Every packet must be a PUBACK of remaining length 2.
        expect([bytes[i], bytes[i + 1]]).toEqual([0x40, 0x02]);
        ids.push((bytes[i + 2]! << 8) | bytes[i + 3]!);
      }
      writes.push(ids);
      return true;
    },
  };
  return { writes, stream };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PubackQueue', () => {
  it('encodes PUBACKs as type 4, remaining length 2, the packet id big-endian', () => {
    expect([...pubackBytes([1, 0x1234, 65535])]).toEqual([
      0x40, 2, 0, 1, 0x40, 2, 0x12, 0x34, 0x40, 2, 0xff, 0xff,
    ]);
    expect(() => pubackBytes([0])).toThrow();
    expect(() => pubackBytes([65536])).toThrow();
  });

  it('acknowledges in the order received, only what is settled, all that is ready in one write', async () => {
    const { writes, stream } = recordingStream();
    const queue = new PubackQueue(() => stream);
    const [a, b, c, d] = [10, 11, 12, 13].map((id) => queue.receive(id));
    queue.settle(b!, true);
    queue.settle(c!, true);
    await tick();
    // b and c are stored, but a came first and is not: nothing yet.
    expect(writes).toEqual([]);
    queue.settle(a!, true);
    await tick();
    expect(writes).toEqual([[10, 11, 12]]);
    expect(queue.outstanding).toBe(1);
    // A message that will not be stored is skipped, never acknowledged.
    queue.settle(d!, false);
    await tick();
    expect(writes).toEqual([[10, 11, 12]]);
    expect(queue.outstanding).toBe(0);
  });

  it('never acknowledges on another connection than the message came on', async () => {
    const first = recordingStream();
    const second = recordingStream();
    let current: PubackStream | undefined = first.stream;
    const queue = new PubackQueue(() => current);
    const old = queue.receive(7);
    // The connection drops and comes back: the broker sends message 7 again, maybe id 7 for another one.
    queue.reset();
    current = second.stream;
    queue.settle(old, true);
    const again = queue.receive(7);
    await tick();
    expect(second.writes).toEqual([]);
    queue.settle(again, true);
    await tick();
    expect(second.writes).toEqual([[7]]);
    expect(first.writes).toEqual([]);
  });

  it('writes nothing while the connection is down, and drain writes at once', () => {
    const { writes, stream } = recordingStream();
    const connection: { stream?: PubackStream } = {};
    const queue = new PubackQueue(() => connection.stream);
    const entry = queue.receive(3);
    queue.settle(entry, true);
    queue.drain();
    expect(writes).toEqual([]);
    connection.stream = stream;
    const next = queue.receive(4);
    queue.settle(next, true);
    queue.drain();
    expect(writes).toEqual([[4]]);
  });
});
