/**
 * The PUBACKs of one MQTT connection, written by the collector itself once their messages are stored,
 * so that one connection can hold many QoS 1 messages at a time.
 *
 * Why not mqtt.js's own PUBACK: it sends it when `handleMessage` calls back, and reads the connection's
 * next packet only after that (client.js `work`/`nextTickWork`), so a connection that acknowledges after
 * commit holds exactly one message, and a transaction gets at most one message per connection. Calling back
 * with an error instead makes mqtt.js read on without a PUBACK (handlers/publish.js passes the error to
 * `done`, which ignores it; the collector already relied on that to leave a message unacknowledged while
 * stopping). The broker then sends up to the connection's Receive Maximum (MQTT 5 §3.3.4) ahead of our
 * PUBACKs, and this queue writes them: only for messages that were settled (stored, or refused for good),
 * in the order the PUBLISH packets came (MQTT 5 §4.6), all that are ready in one socket write.
 *
 * A PUBACK never goes out on another connection than its PUBLISH came on: `reset` (on close) forgets
 * everything outstanding, since the broker sends those messages again on the next connection of the
 * session, with the same packet ids maybe given to other messages meanwhile. Such a message is then stored
 * as a duplicate, counted, and acknowledged on that connection.
 */

/** A connection's byte stream (mqtt.js `client.stream`). */
export interface PubackStream {
  write(bytes: Uint8Array): unknown;
  readonly writable: boolean;
}

/** What the queue writes to: the connection's current stream, or undefined while it is down. */
export type CurrentStream = () => PubackStream | undefined;

export interface Outstanding {
  readonly messageId: number;
  readonly generation: number;
  /** The stream the PUBLISH came on: its PUBACK goes there or nowhere. */
  readonly stream: PubackStream | undefined;
  /** undefined: not settled yet; true: acknowledge; false: leave unacknowledged (the broker sends it again). */
  ack?: boolean;
}

/** MQTT PUBACK packets for these packet ids, back to back: type 4, remaining length 2, the id (MQTT 5 §3.4.2.1: reason code Success and no properties may be left out). */
export function pubackBytes(ids: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(ids.length * 4);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (!(Number.isInteger(id) && id >= 1 && id <= 0xffff)) throw new Error(`bad packet id ${id}`);
    out[i * 4] = 0x40;
    out[i * 4 + 1] = 0x02;
    out[i * 4 + 2] = id >> 8;
    out[i * 4 + 3] = id & 0xff;
  }
  return out;
}

export class PubackQueue {
  private readonly queue: Outstanding[] = [];
  private generation = 0;
  private scheduled = false;

  constructor(private readonly current: CurrentStream) {}

  /** A QoS 1 PUBLISH received: its PUBACK waits for `settle`, and so do those of the messages after it. */
  receive(messageId: number): Outstanding {
    const entry: Outstanding = { messageId, generation: this.generation, stream: this.current() };
    this.queue.push(entry);
    return entry;
  }

  /**
   * The message is stored (`ack` true) or will not be (false). The PUBACKs that are ready are written
   * together a moment later (setImmediate), so that a committed batch costs one write per connection.
   */
  settle(entry: Outstanding, ack: boolean): void {
    if (entry.generation !== this.generation) return;
    entry.ack = ack;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** Writes now every PUBACK that is ready (the queue's head up to the first unsettled message). */
  drain(): void {
    let n = 0;
    while (n < this.queue.length && this.queue[n]!.ack !== undefined) n++;
    if (n === 0) return;
    const ready = this.queue.splice(0, n);
    const stream = this.current();
    if (!stream?.writable) return;
    const ids = ready.filter((e) => e.ack && e.stream === stream).map((e) => e.messageId);
    if (ids.length) stream.write(pubackBytes(ids));
  }

  /** The connection closed: nothing outstanding is acknowledged any more (see the module comment). */
  reset(): void {
    this.generation++;
    this.queue.length = 0;
  }

  /** Messages received and not yet acknowledged or given up. */
  get outstanding(): number {
    return this.queue.length;
  }
}
