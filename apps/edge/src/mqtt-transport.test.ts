/**
 * The agent's MQTT transport against a real broker (a Mosquitto of the test's own), with the test in the
 * console's place on the other side of the topics: a batch counts as sent only on an ack signed with the
 * plant's key and naming it; acks of several batches in flight come back in any order and each resolves
 * its own; a forged ack is ignored; `invalid` refuses the batch for good. Over `mqtts://` it talks TLS and
 * trusts the broker's certificate only through the CA it was given.
 */
import { createHash, createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeAckTopic, edgeReadingsTopic, type EdgeAck } from '@solar/shared';
import { mosquittoAvailable, startOwnMosquitto, type OwnBroker } from '../../server/src/test/mosquitto';
import { MqttTransport } from './mqtt-transport';
import { makeCertificates } from './test/certificates';
import { BatchRefusedError } from './transport';

const KEY = 'sk_test-key-of-the-plant';
const PLANT = 42;
const AGENT = 'edge-transport-test';
const point = (i: number) => ({ signal_id: 1, ts: 1_790_000_000_000 + i, value: i });
const macWith = (key: string, payload: Buffer) =>
  createHmac('sha256', createHash('sha256').update(key).digest('hex')).update(payload).digest('hex');

describe.skipIf(!mosquittoAvailable && !process.env.REQUIRE_ALL_SUITES)('MQTT transport', () => {
  let broker: OwnBroker;
  let consoleSide: MqttClient;
  let transport: MqttTransport;
  const batches: { batch_id: string; points: unknown[]; mac: unknown }[] = [];

  beforeAll(async () => {
    broker = await startOwnMosquitto();
    consoleSide = await mqtt.connectAsync(broker.url, { clientId: 'console-side', protocolVersion: 5 });
    consoleSide.on('message', (_topic, payload, packet) => {
      const batch = JSON.parse(payload.toString('utf8')) as { batch_id: string; points: unknown[] };
      const mac = packet.properties?.userProperties?.mac;
      batches.push({ ...batch, mac: mac === macWith(KEY, payload) ? 'valid' : mac });
    });
    await consoleSide.subscribeAsync(edgeReadingsTopic(PLANT, AGENT), { qos: 1 });
    transport = new MqttTransport({
      url: broker.url,
      agentId: AGENT,
      key: KEY,
      plantId: () => PLANT,
      ackTimeoutMs: 3_000,
      log: () => undefined,
    });
    const end = Date.now() + 10_000;
    while (!(transport as unknown as { client: MqttClient }).client.connected && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
  }, 30_000);
  afterAll(async () => {
    await transport?.close();
    await consoleSide?.endAsync();
    await broker?.stop();
  });

  const answer = async (ack: Partial<EdgeAck> & { batch_id: string }, key = KEY) => {
    const payload = Buffer.from(
      JSON.stringify({ outcome: 'stored', stored: 1, duplicates: 0, rejected: [], ...ack }),
    );
    await consoleSide.publishAsync(edgeAckTopic(PLANT, AGENT), payload, {
      qos: 1,
      properties: { userProperties: { mac: macWith(key, payload) } },
    });
  };
  const nextBatches = async (n: number) => {
    const end = Date.now() + 10_000;
    while (batches.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(batches.length).toBeGreaterThanOrEqual(n);
    return batches.splice(0, n);
  };

  it('resolves each of several batches in flight on its own signed ack, in any order', async () => {
    const first = transport.send([point(1)]);
    const second = transport.send([point(2), point(3)]);
    const [a, b] = await nextBatches(2);
    expect([a!.mac, b!.mac]).toEqual(['valid', 'valid']);
    const rejected = [{ index: 0, signal_id: 1, reason: 'unknown_signal' as const }];
    await answer({ batch_id: b!.batch_id, stored: 2, rejected });
    await answer({ batch_id: a!.batch_id });
    const [ofA, ofB] = a!.points.length === 1 ? [first, second] : [second, first];
    expect(await ofB).toEqual({ rejected });
    expect(await ofA).toEqual({ rejected: [] });
  });

  it('ignores an ack signed with another key: the batch is not sent', async () => {
    // Outcomes are taken as they come, so that an early rejection is never unhandled.
    const sent = transport.send([point(4)]).catch((e: unknown) => e);
    const [batch] = await nextBatches(1);
    await answer({ batch_id: batch!.batch_id }, 'sk_someone-else');
    expect(String(await sent)).toMatch(/no ack within/);
  });

  it('refuses a batch for good on `invalid`, and keeps it on `unauthorised`', async () => {
    const invalid = transport.send([point(5)]).catch((e: unknown) => e);
    const [one] = await nextBatches(1);
    await answer({ batch_id: one!.batch_id, outcome: 'invalid', stored: 0 });
    expect(await invalid).toBeInstanceOf(BatchRefusedError);
    const unauthorised = transport.send([point(6)]).catch((e: unknown) => e);
    const [two] = await nextBatches(1);
    await answer({ batch_id: two!.batch_id, outcome: 'unauthorised', stored: 0 });
    const error = await unauthorised;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(BatchRefusedError);
  });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe.skipIf(!mosquittoAvailable && !process.env.REQUIRE_ALL_SUITES)('MQTT transport over TLS', () => {
  let dir: string;
  let broker: OwnBroker;
  let tlsUrl: string;
  let ca: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'edge-tls-'));
    chmodSync(dir, 0o755);
    const files = makeCertificates(dir);
    ca = readFileSync(files.ca);
    const tlsPort = await freePort();
    // A second listener of the same broker, with TLS: the agent's side; the test stays on the plain one.
    broker = await startOwnMosquitto([
      `listener ${tlsPort} 127.0.0.1`,
      `cafile ${files.ca}`,
      `certfile ${files.cert}`,
      `keyfile ${files.key}`,
    ]);
    tlsUrl = `mqtts://127.0.0.1:${tlsPort}`;
  }, 30_000);
  afterAll(async () => {
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const transportTo = (options: { ca?: Buffer }, logged: string[] = []) =>
    new MqttTransport({
      url: tlsUrl,
      agentId: `edge-tls-${options.ca ? 'trusting' : 'doubting'}`,
      key: KEY,
      plantId: () => PLANT,
      ackTimeoutMs: 4_000,
      log: (_level, msg, fields) => logged.push(`${msg} ${JSON.stringify(fields ?? {})}`),
      ...options,
    });
  /** True once the transport is connected, false when it is not within `ms`. */
  const connects = async (transport: MqttTransport, ms: number) => {
    const client = (transport as unknown as { client: MqttClient }).client;
    const end = Date.now() + ms;
    while (!client.connected && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return client.connected;
  };

  it('sends a batch over TLS to a broker whose certificate its CA signed, and takes the ack', async () => {
    const consoleSide = await mqtt.connectAsync(broker.url, { clientId: 'console-tls', protocolVersion: 5 });
    const transport = transportTo({ ca });
    try {
      consoleSide.on('message', (_topic, payload) => {
        const { batch_id } = JSON.parse(payload.toString('utf8')) as { batch_id: string };
        const ack = Buffer.from(
          JSON.stringify({ batch_id, outcome: 'stored', stored: 1, duplicates: 0, rejected: [] }),
        );
        void consoleSide.publishAsync(edgeAckTopic(PLANT, 'edge-tls-trusting'), ack, {
          qos: 1,
          properties: { userProperties: { mac: macWith(KEY, ack) } },
        });
      });
      await consoleSide.subscribeAsync(edgeReadingsTopic(PLANT, 'edge-tls-trusting'), { qos: 1 });
      expect(await connects(transport, 10_000)).toBe(true);
      expect(await transport.send([point(1)])).toEqual({ rejected: [] });
    } finally {
      await transport.close();
      await consoleSide.endAsync();
    }
  });

  it('does not connect to a broker whose certificate it cannot trust', async () => {
    const logged: string[] = [];
    const transport = transportTo({}, logged);
    try {
      // Long enough for several attempts (one a second).
      expect(await connects(transport, 3_000)).toBe(false);
      expect(logged.join('\n')).toMatch(/connection error.*(self-signed|unable to (get|verify))/i);
      const sent = await transport.send([point(2)]).catch((e: unknown) => e);
      expect(sent).toBeInstanceOf(Error);
      expect(sent).not.toBeInstanceOf(BatchRefusedError);
    } finally {
      await transport.close();
    }
  });
});
