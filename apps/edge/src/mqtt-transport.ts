/**
 * Batches over MQTT (packages/shared/src/edge.ts, docs/edge.md "Forwarding over MQTT"): each batch is
 * published at QoS 1 on `solar/{plant_id}/edge/{agent_id}/readings`, signed with the plant's ingest key,
 * and counts as sent only when the console's signed ack for its batch id arrives on `…/ack`, which the
 * console publishes after the batch's transaction committed. The broker's PUBACK only says the broker has
 * it. No ack within `ackTimeoutMs` fails the send: the batch stays queued and goes again (with a new batch
 * id), and the console's store keeps a repeated (signal, ts) once.
 *
 * The session is persistent (clean start off, the agent id as client id), so that the broker keeps the
 * ack subscription and the acks published while the agent restarts; `mqtts://` connects over TLS.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import {
  EDGE_MQTT_MAC_PROPERTY,
  EDGE_MQTT_QOS,
  edgeAck,
  edgeAckTopic,
  edgeReadingsTopic,
  type EdgeAck,
  type TelemetryPointInput,
} from '@solar/shared';
import type { Log } from './log';
import { BatchRefusedError, type ReadingTransport } from './transport';

export interface MqttTransportOptions {
  /** `mqtt://host:1883` or `mqtts://host:8883` (TLS). */
  url: string;
  agentId: string;
  /** The plant's ingest key: it signs the batches and checks the acks, and never goes over MQTT. */
  key: string;
  /** The plant of the configuration read from the console; undefined until one was read. */
  plantId: () => number | undefined;
  username?: string;
  password?: string;
  /** A CA of the broker's certificate besides the system's (PEM). */
  ca?: Buffer;
  /** How long to wait for the console's ack before the batch counts as not sent. */
  ackTimeoutMs?: number;
  log: Log;
  /** First topic level instead of `solar` (tests). */
  topicRoot?: string;
}

interface Pending {
  resolve(ack: EdgeAck): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** What signs a plant's messages: the hex SHA-256 of its key, which is what the console keeps of it. */
const macSecretOf = (key: string) => createHash('sha256').update(key).digest('hex');
const macOf = (secret: string, payload: Buffer) => createHmac('sha256', secret).update(payload).digest('hex');

const SESSION_EXPIRY_S = 7 * 86_400;

export class MqttTransport implements ReadingTransport {
  private readonly client: MqttClient;
  private readonly secret: string;
  private readonly root: string;
  private readonly pending = new Map<string, Pending>();
  /** The ack topic subscribed on the current connection. */
  private subscribed: Promise<void> | undefined;
  private subscribedTopic: string | undefined;

  constructor(private readonly options: MqttTransportOptions) {
    this.secret = macSecretOf(options.key);
    this.root = options.topicRoot ?? 'solar';
    const connectOptions: IClientOptions = {
      clientId: options.agentId,
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      // Subscribed by us on each connection (ackTopic): a broker restarted without its sessions still
      // answers, and mqtt.js's own resubscribe skips that when the broker says the session is present.
      resubscribe: false,
      username: options.username,
      password: options.password,
      ...(options.ca ? { ca: options.ca } : {}),
    };
    this.client = mqtt.connect(options.url, connectOptions);
    this.client.on('connect', () => {
      this.subscribed = undefined;
      options.log('info', 'mqtt: connected', { url: options.url });
    });
    this.client.on('close', () => (this.subscribed = undefined));
    this.client.on('error', (error) =>
      options.log('debug', 'mqtt: connection error', { err: error.message }),
    );
    this.client.on('message', (_topic, payload, packet) => this.onAck(payload, packet));
  }

  /** Subscribes to this agent's ack topic once per connection, before the first batch goes out on it. */
  private ackSubscription(plantId: number): Promise<void> {
    const topic = edgeAckTopic(plantId, this.options.agentId, this.root);
    if (!this.subscribed || this.subscribedTopic !== topic) {
      this.subscribedTopic = topic;
      const subscribing = this.client.subscribeAsync(topic, { qos: EDGE_MQTT_QOS }).then(() => undefined);
      subscribing.catch(() => {
        if (this.subscribed === subscribing) this.subscribed = undefined;
      });
      this.subscribed = subscribing;
    }
    return this.subscribed;
  }

  private onAck(payload: Buffer, packet: IPublishPacket): void {
    const raw = packet.properties?.userProperties?.[EDGE_MQTT_MAC_PROPERTY];
    const mac = Array.isArray(raw) ? raw[0] : raw;
    const expected = Buffer.from(macOf(this.secret, payload), 'hex');
    const given = typeof mac === 'string' && /^[0-9a-f]{64}$/.test(mac) ? Buffer.from(mac, 'hex') : undefined;
    if (!given || !timingSafeEqual(expected, given)) {
      // Also what an agent holding a rotated (revoked) key sees: the console signs with the live key.
      this.options.log('warn', "mqtt: an ack not signed with this agent's key: ignored (a rotated key?)", {
        topic: packet.topic,
      });
      return;
    }
    let ack: EdgeAck;
    try {
      ack = edgeAck.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      this.options.log('warn', 'mqtt: a malformed ack: ignored', { topic: packet.topic });
      return;
    }
    // An ack of a batch no longer waited for (timed out, or sent before a restart) is dropped: its rows
    // were or will be sent again, and stored once.
    const waiting = this.pending.get(ack.batch_id);
    if (!waiting) return;
    this.pending.delete(ack.batch_id);
    clearTimeout(waiting.timer);
    waiting.resolve(ack);
  }

  async send(points: TelemetryPointInput[]) {
    const plantId = this.options.plantId();
    if (plantId === undefined) throw new Error('no configuration read yet: the plant is not known');
    if (!this.client.connected) throw new Error('mqtt: broker not connected');
    await this.ackSubscription(plantId);
    const batchId = randomUUID();
    const payload = Buffer.from(JSON.stringify({ batch_id: batchId, points }));
    const acked = new Promise<EdgeAck>((resolve, reject) => {
      const timeoutMs = this.options.ackTimeoutMs ?? 30_000;
      const timer = setTimeout(() => {
        this.pending.delete(batchId);
        reject(new Error(`mqtt: no ack within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(batchId, { resolve, reject, timer });
    });
    // The PUBACK is not awaited on its own: after a reconnect mqtt.js sends the message again, and the
    // ack (or its timeout) decides either way.
    this.client
      .publishAsync(edgeReadingsTopic(plantId, this.options.agentId, this.root), payload, {
        qos: EDGE_MQTT_QOS,
        properties: { userProperties: { [EDGE_MQTT_MAC_PROPERTY]: macOf(this.secret, payload) } },
      })
      .catch((error: unknown) =>
        this.fail(batchId, error instanceof Error ? error : new Error(String(error))),
      );
    const ack = await acked;
    if (ack.outcome === 'invalid')
      throw new BatchRefusedError('invalid (the console could not read the batch)');
    if (ack.outcome === 'unauthorised')
      throw new Error("console: the batch is not signed by the plant's live key");
    return { rejected: ack.rejected };
  }

  private fail(batchId: string, error: Error): void {
    const waiting = this.pending.get(batchId);
    if (!waiting) return;
    this.pending.delete(batchId);
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }

  /** Fails what waits for an ack (it stays queued) and disconnects. */
  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.fail(id, new Error('transport closed'));
    await this.client.endAsync();
  }
}
