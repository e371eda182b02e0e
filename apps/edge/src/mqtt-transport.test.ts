/**
 * The agent's MQTT transport against a real broker (a Mosquitto of the test's own), with the test in the
 * console's place on the other side of the topics: a batch counts as sent only on an ack signed with the
 * plant's key and naming it; acks of several batches in flight come back in any order and each resolves
 * its own; a forged ack is ignored; `invalid` refuses the batch for good.
 */
import { createHash, createHmac } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeAckTopic, edgeReadingsTopic, type EdgeAck } from '@solar/shared';
import { mosquittoAvailable, startOwnMosquitto, type OwnBroker } from '../../server/src/test/mosquitto';
import { MqttTransport } from './mqtt-transport';
import { BatchRefusedError } from './transport';

const KEY = 'sk_test-key-of-the-plant';
const PLANT = 42;
const AGENT = 'edge-transport-test';
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
  const point = (i: number) => ({ signal_id: 1, ts: 1_790_000_000_000 + i, value: i });

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
