import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleTopology } from './example-topology';
import { startMqttPublisher } from './mqtt-publisher';
import type { MqttPublisher } from './mqtt-publisher';
import { createVirtualPlant } from './plant';

// `npm test` sets TEST_MQTT_URL, empty when no broker answers (the test is then skipped, and said so).
const BROKER = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

interface Message {
  topic: string;
  ts: number;
  values: Record<string, number>;
}

describe.skipIf(BROKER === '')('MQTT publisher (against the local Mosquitto)', () => {
  let publisher: MqttPublisher | undefined;
  afterEach(async () => {
    await publisher?.stop();
    publisher = undefined;
  });

  it('publishes every device with plausible values at QoS 1, and skips devices in communication loss', async () => {
    const prefix = `solar-test-${process.pid}-${Date.now()}`;
    const definition = exampleTopology(1)[0]!;
    const plant = createVirtualPlant(definition, { seed: 1, faults: false, clouds: false });
    let now = Date.UTC(2025, 5, 21, 9, 45);
    plant.sample(now - 60 * 60_000);

    const subscriber = await connectAsync(BROKER);
    const messages: Message[] = [];
    subscriber.on('message', (topic, payload) => {
      const body = JSON.parse(payload.toString()) as Omit<Message, 'topic'>;
      messages.push({ topic, ...body });
    });
    await subscriber.subscribeAsync(`${prefix}/#`, { qos: 1 });

    publisher = await startMqttPublisher({
      url: BROKER,
      plants: [plant],
      intervalMs: 60_000,
      clock: () => now,
      topicPrefix: prefix,
    });
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && messages.length < count; i++) await new Promise((r) => setTimeout(r, 50));
    };
    await waitFor(definition.devices.length);
    expect(messages).toHaveLength(definition.devices.length);
    const inv = messages.find((m) => m.topic === `${prefix}/karapinar-ges-1/inv-01/telemetry`)!;
    expect(inv.ts).toBe(now);
    expect(inv.values.ac_power).toBeGreaterThan(80);
    expect(inv.values.ac_power).toBeLessThanOrEqual(100);
    expect(Object.keys(inv.values).sort()).toEqual(definition.devices[1]!.signals.map((s) => s.key).sort());
    const ws = messages.find((m) => m.topic.endsWith('/ws-1/telemetry'))!;
    expect(ws.values.irradiance).toBeGreaterThan(850);

    // The meter drops off the network: the next round has everything but the meter.
    messages.length = 0;
    now += 60_000;
    plant.forceFault('meter-1', 'comm_loss', now, 5 * 60_000);
    expect(await publisher.publishOnce()).toBe(definition.devices.length - 1);
    await waitFor(definition.devices.length - 1);
    expect(messages).toHaveLength(definition.devices.length - 1);
    expect(messages.some((m) => m.topic.includes('/meter-1/'))).toBe(false);
    expect(publisher.published).toBe(2 * definition.devices.length - 1);
    await subscriber.endAsync();
  });

  it('keeps what the broker dropped for want of a subscriber and sends it again, oldest first, once one is back', async () => {
    const prefix = `solar-test-sf-${process.pid}-${Date.now()}`;
    const definition = exampleTopology(1)[0]!;
    const plant = createVirtualPlant(definition, { seed: 2, faults: false, clouds: false });
    let now = Date.UTC(2025, 5, 21, 10, 0);
    plant.sample(now - 60 * 60_000);
    publisher = await startMqttPublisher({
      url: BROKER,
      plants: [plant],
      intervalMs: 60_000,
      clock: () => now,
      topicPrefix: prefix,
      maxBuffered: definition.devices.length + 2,
    });
    const devices = definition.devices.length;
    // The first round ran at start with nobody subscribed: every message answered 16 and kept.
    const waitUntil = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await waitUntil(() => publisher!.buffered === devices);
    expect(publisher.buffered).toBe(devices);
    expect(publisher.published).toBe(0);

    // A second round without a subscriber: beyond maxBuffered the oldest are given up.
    now += 60_000;
    await publisher.publishOnce();
    expect(publisher.buffered).toBe(devices + 2);

    const subscriber = await connectAsync(BROKER);
    const received: Message[] = [];
    subscriber.on('message', (topic, payload) => {
      received.push({ topic, ...(JSON.parse(payload.toString()) as Omit<Message, 'topic'>) });
    });
    await subscriber.subscribeAsync(`${prefix}/#`, { qos: 1 });
    now += 60_000;
    expect(await publisher.publishOnce()).toBe(2 * devices + 2);
    await waitUntil(() => received.length === 2 * devices + 2);
    expect(publisher.buffered).toBe(0);
    expect(publisher.published).toBe(2 * devices + 2);
    // The kept ones first, oldest first: two of the first round, then the second round, then this one.
    const times = received.map((m) => m.ts);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.filter((t) => t === now - 120_000)).toHaveLength(2);
    expect(times.filter((t) => t === now - 60_000)).toHaveLength(devices);
    expect(times.filter((t) => t === now)).toHaveLength(devices);
    await subscriber.endAsync();
  });
});
