/**
 * Publishes virtual plants to an MQTT broker, one message per device and interval:
 * topic `solar/{plant_id}/{device_id}/telemetry`, payload `{ "ts": <epoch ms>, "values": { "<key>": n } }`,
 * QoS 1, MQTT 5. A device in communication loss publishes nothing.
 *
 * Like a data logger with store-and-forward, it keeps the messages the broker acknowledged with "No matching
 * subscribers" (dropped: no collector subscribed, as right after a broker restart) and sends them again, oldest
 * first, at the start of the next round, up to `maxBuffered` messages (the oldest go first beyond that).
 */
import { connectAsync } from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
import { NO_MATCHING_SUBSCRIBERS, publishKey, watchPubacks } from './mqtt-delivery';
import type { VirtualPlant } from './plant';

export interface MqttPublisherOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  plants: readonly VirtualPlant[];
  intervalMs: number;
  /** Epoch ms of "now"; defaults to Date.now (tests pass a fake clock). */
  clock?: () => number;
  /** Extra client options (credentials, client id). */
  mqttOptions?: IClientOptions;
  /** Topic prefix instead of `solar`. */
  topicPrefix?: string;
  /** Called when a publish fails; the publisher keeps going. */
  onError?: (error: Error) => void;
  /** Messages kept to send again after the broker dropped them (default 10,000: a day of 35 devices at 5 min). */
  maxBuffered?: number;
}

export interface MqttPublisher {
  /** Publishes one round now (also what every interval does); resolves when the broker acknowledged all. */
  publishOnce(): Promise<number>;
  /** Messages acknowledged so far and delivered to a subscriber (or its session's queue). */
  readonly published: number;
  /** Messages the broker dropped for want of a subscriber, waiting to be sent again. */
  readonly buffered: number;
  stop(): Promise<void>;
}

/** The topic a device publishes its telemetry to. */
export function telemetryTopic(
  plantId: number | string,
  deviceId: number | string,
  prefix = 'solar',
): string {
  return `${prefix}/${plantId}/${deviceId}/telemetry`;
}

/** Connects to the broker and starts publishing every `intervalMs`. */
export async function startMqttPublisher(options: MqttPublisherOptions): Promise<MqttPublisher> {
  const clock = options.clock ?? Date.now;
  const onError = options.onError ?? ((e: Error) => console.error('simulator mqtt:', e.message));
  const client: MqttClient = await connectAsync(options.url, {
    clientId: `solar-simulator-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    reconnectPeriod: 2000,
    protocolVersion: 5,
    ...options.mqttOptions,
  });
  const maxBuffered = options.maxBuffered ?? 10_000;
  /** Dropped messages to send again, oldest first. */
  let backlog: { topic: string; payload: string }[] = [];
  let published = 0;
  let running: Promise<number> | undefined;

  async function publishOnce(): Promise<number> {
    const ts = clock();
    const messages = backlog;
    backlog = [];
    for (const plant of options.plants) {
      for (const device of plant.sample(ts)) {
        if (!device.online || Object.keys(device.values).length === 0) continue;
        const topic = telemetryTopic(plant.definition.plantId, device.deviceId, options.topicPrefix);
        messages.push({ topic, payload: JSON.stringify({ ts, values: device.values }) });
      }
    }
    const keys = new Set(messages.map((m) => publishKey(m.topic, m.payload)));
    const watch = watchPubacks(client, (key) => keys.has(key));
    const sends = messages.map((m) =>
      client.publishAsync(m.topic, m.payload, { qos: 1 }).then(
        () => {
          if (watch.codes.get(publishKey(m.topic, m.payload)) === NO_MATCHING_SUBSCRIBERS) backlog.push(m);
          else published++;
        },
        (e: unknown) => onError(e instanceof Error ? e : new Error(String(e))),
      ),
    );
    try {
      await Promise.all(sends);
    } finally {
      watch.done();
    }
    if (backlog.length > maxBuffered) backlog = backlog.slice(backlog.length - maxBuffered);
    return sends.length;
  }

  const tick = () => {
    // Skip a round rather than pile up when the broker is slower than the interval.
    if (running) return;
    running = publishOnce().finally(() => {
      running = undefined;
    });
    running.catch(onError);
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);

  return {
    publishOnce,
    get published() {
      return published;
    },
    get buffered() {
      return backlog.length;
    },
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
      await client.endAsync();
    },
  };
}
