/**
 * Publishes virtual plants to an MQTT broker, one message per device and interval:
 * topic `solar/{plant_id}/{device_id}/telemetry`, payload `{ "ts": <epoch ms>, "values": { "<key>": n } }`,
 * QoS 1. A device in communication loss publishes nothing.
 */
import { connectAsync } from 'mqtt';
import type { IClientOptions, MqttClient } from 'mqtt';
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
}

export interface MqttPublisher {
  /** Publishes one round now (also what every interval does); resolves when the broker acknowledged all. */
  publishOnce(): Promise<number>;
  /** Messages acknowledged so far. */
  readonly published: number;
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
    ...options.mqttOptions,
  });
  let published = 0;
  let running: Promise<number> | undefined;

  async function publishOnce(): Promise<number> {
    const ts = clock();
    const sends: Promise<unknown>[] = [];
    for (const plant of options.plants) {
      for (const device of plant.sample(ts)) {
        if (!device.online || Object.keys(device.values).length === 0) continue;
        const topic = telemetryTopic(plant.definition.plantId, device.deviceId, options.topicPrefix);
        const payload = JSON.stringify({ ts, values: device.values });
        sends.push(
          client.publishAsync(topic, payload, { qos: 1 }).then(
            () => published++,
            (e: unknown) => onError(e instanceof Error ? e : new Error(String(e))),
          ),
        );
      }
    }
    await Promise.all(sends);
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
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
      await client.endAsync();
    },
  };
}
