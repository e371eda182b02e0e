/**
 * The MQTT way in: `solar/{plant_id}/{device_id}/telemetry` with QoS 1, as the MQTT 5 shared subscription
 * `$share/{group}/solar/+/+/telemetry` over several connections, each on a persistent session (clean start
 * off, a fixed client id and a session expiry), so that the broker keeps what devices publish while the
 * server is down and delivers it when it is back (MQTT 5 §3.1.2.4, §4.8.2).
 *
 * Acknowledged means stored: a message's PUBACK goes out only after the transaction that holds its points
 * has committed. mqtt.js would send the PUBACK when `handleMessage` calls back and read the connection's
 * next packet only then, which holds a connection to one message at a time; the collector instead lets
 * mqtt.js read on at once and writes the PUBACKs itself after the commit (puback-queue.ts). Each
 * connection thus holds up to its Receive Maximum of messages, and the commit batcher stores the messages
 * of all connections together (up to `maxBatchMessages`, `batchWindowMs` after the first, longer while the
 * previous batch commits), then acknowledges each. The connections share the load and let several server
 * nodes share one group.
 *
 * A server that dies between receipt and commit, or between commit and PUBACK, gets the message again on
 * the next connection of that client id; one already committed comes back as a duplicate, which the
 * telemetry store recognises by (signal, ts), counts and does not write twice.
 */
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { MQTT_TELEMETRY_QOS, type MqttCollectorHealth } from '@solar/shared';
import { timeWindow } from '../../telemetry-store/point-validation';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import { RateLimitedWarn, type CollectorContext, type CollectorLog } from '../collector-context';
import { loadTopicDevice, type TopicDevice } from '../collectors.repository';
import { CommitBatcher } from './commit-batcher';
import { PubackQueue } from './puback-queue';
import {
  BROKER_DROPPED_TOPIC,
  brokerDroppedCount,
  deviceRefusal,
  giveUpStoring,
  parseTelemetryMessage,
  pointsOf,
  sharedFilter,
  stillFresh,
  storeRetryDelayMs,
  telemetryTopics,
} from './telemetry-message';

export interface MqttCollectorOptions {
  /** Broker and client id; default config.mqtt. Connection i > 0 uses `{clientId}-{i}`. */
  url?: string;
  clientId?: string;
  /** Connections in the share group; default config.mqtt (16). */
  connections?: number;
  /** Shared-subscription group; every node of one deployment uses the same; default config.mqtt. */
  shareGroup?: string;
  /** A batch is stored when it holds this many messages … (default 2,000) */
  maxBatchMessages?: number;
  /** … or this long after its first message (ms). */
  batchWindowMs?: number;
  /**
   * Messages the broker may send a connection ahead of its PUBACKs (MQTT 5 Receive Maximum; Mosquitto
   * also caps it at its max_inflight_messages). Connections × this bounds the messages in hand.
   */
  receiveMaximum?: number;
  /** How long the broker keeps a connection's session while it is away (s). */
  sessionExpiryS?: number;
  /** How long a device and its signal keys are trusted before they are read again. */
  deviceCacheTtlMs?: number;
  /** First topic level instead of `solar` (tests sharing one broker keep apart with it). */
  topicRoot?: string;
  /** Wait between reconnect attempts. */
  reconnectPeriodMs?: number;
}

export interface MqttCollectorStats {
  /** Messages received, good or bad. */
  received: number;
  /** Points stored (new, or already there: see duplicates). */
  stored: number;
  /** Of `stored`, points that were already there (a redelivery, or a device sending twice). */
  duplicates: number;
  /**
   * Points refused: unknown or inactive key, or what point-validation.ts refuses (epoch seconds, future,
   * too old, not a finite number, out of range); also counted per device in ctx.ingestCounts.
   */
  rejected: number;
  /** Messages refused whole: bad topic, bad JSON, bad shape, unknown or inactive device, wrong plant. */
  badMessages: number;
  /** Transactions committed (each holds the points of one or more messages). */
  batches: number;
}

export interface MqttCollector {
  /** Stores what is in hand, acknowledges it, and disconnects (the sessions keep collecting). */
  stop(): Promise<void>;
  /**
   * Drops every connection at once and acknowledges nothing more, as a crash would: what is in hand comes
   * again on the next start, stored or not.
   */
  abort(): Promise<void>;
  stats(): MqttCollectorStats;
  health(): MqttCollectorHealth;
  /** Resolves once every connection is connected and subscribed (the first time). */
  ready(): Promise<void>;
}

/** A key the cache does not know triggers a re-read of the device at most this often. */
const REFRESH_ON_MISS_MS = 1000;
/** What the collector tells mqtt.js instead of "acknowledge": the PUBACK comes later, from puback-queue.ts. */
const HELD = new Error('acknowledged after commit');
/** Default session expiry: a week, so that a long outage of the server loses nothing the broker holds. */
const SESSION_EXPIRY_S = 7 * 86_400;

/** Starts the collector on `config.mqtt` (or options); see the module comment. */
export function startMqttCollector(
  ctx: CollectorContext,
  log: CollectorLog,
  options: MqttCollectorOptions = {},
): MqttCollector {
  const url = options.url ?? ctx.config.mqtt?.url;
  const clientId = options.clientId ?? ctx.config.mqtt?.clientId;
  if (!url || !clientId) throw new Error('startMqttCollector needs config.mqtt');
  const connections = options.connections ?? ctx.config.mqtt?.connections ?? 16;
  const shareGroup = options.shareGroup ?? ctx.config.mqtt?.shareGroup ?? 'solar';
  const maxBatchMessages = options.maxBatchMessages ?? 2_000;
  const ttl = options.deviceCacheTtlMs ?? 10_000;
  const topics = telemetryTopics(options.topicRoot ?? 'solar');
  const filter = sharedFilter(shareGroup, topics.filter);
  const warn = new RateLimitedWarn(log, 10_000, ctx.now);
  const stats: MqttCollectorStats = {
    received: 0,
    stored: 0,
    duplicates: 0,
    rejected: 0,
    badMessages: 0,
    batches: 0,
  };
  let brokerDropped: number | null = null;
  const cache = new Map<number, { device: TopicDevice | undefined; loadedAt: number }>();
  let stopping = false;
  let aborted = false;

  // --- Devices and their keys, cached ---
  const deviceOf = async (id: number, refresh = false): Promise<TopicDevice | undefined> => {
    const now = ctx.now();
    const hit = cache.get(id);
    if (hit && stillFresh(hit.loadedAt, now, refresh ? REFRESH_ON_MISS_MS : ttl)) return hit.device;
    const device = await loadTopicDevice(ctx.db, id);
    cache.set(id, { device, loadedAt: now });
    return device;
  };

  // --- Batches of messages into the telemetry hub, one transaction each ---
  const storeWithRetry = async (points: PointToStore[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await ctx.telemetry.store(points);
        stats.stored += result.inserted + result.duplicates;
        stats.duplicates += result.duplicates;
        stats.batches++;
        return;
      } catch (error) {
        // Nothing of the batch is acknowledged: the broker sends it again to the next session.
        if (giveUpStoring(stopping)) {
          log.error({ err: error, points: points.length }, 'mqtt: storing telemetry failed');
          throw error;
        }
        warn.warn('store', { err: error, attempt }, 'mqtt: storing telemetry failed, retrying');
        await new Promise((r) => setTimeout(r, storeRetryDelayMs(attempt)));
      }
    }
  };
  const batcher = new CommitBatcher(storeWithRetry, options.batchWindowMs ?? 50, maxBatchMessages);

  // --- One message ---
  const bad = (reason: string, topic: string, details: Record<string, unknown> = {}) => {
    stats.badMessages++;
    warn.warn(`bad:${reason}`, { topic, reason, ...details }, 'mqtt: message refused');
  };
  const reject = (reason: string, topic: string, n: number, details: Record<string, unknown> = {}) => {
    stats.rejected += n;
    warn.warn(`reject:${reason}`, { topic, reason, ...details }, 'mqtt: values refused');
  };

  /** Checks and stores one message; resolves when it may be acknowledged, rejects when it was not stored. */
  const handle = async (packet: IPublishPacket): Promise<void> => {
    stats.received++;
    const topic = packet.topic;
    const message = parseTelemetryMessage(topics, topic, packet.payload);
    if (!message.ok) return bad(message.reason, topic, message.details);
    const { plantId, deviceId, ts, values } = message;
    let cached = await deviceOf(deviceId);
    // A device added, activated or moved a moment ago: read it again before refusing its message.
    if (deviceRefusal(cached, plantId)) cached = await deviceOf(deviceId, true);
    const refusal = deviceRefusal(cached, plantId);
    if (refusal || !cached) return bad(refusal ?? 'unknown_device', topic);
    let device: TopicDevice = cached;
    const keys = Object.keys(values);
    // A signal added a moment ago: read the device again before refusing its key.
    if (keys.some((key) => !device.signals.has(key))) device = (await deviceOf(deviceId, true)) ?? device;
    const window = timeWindow(ctx.now(), ctx.settings.current().raw_retention_days);
    const { points, refused } = pointsOf(device, ts, values, window);
    for (const { reason, key } of refused) {
      reject(reason, topic, 1, { key: key.slice(0, 64), ts });
      ctx.ingestCounts.add(deviceId, reason);
    }
    if (points.length) await batcher.enqueue(points);
  };

  // --- The connections ---
  const inHand = new Set<Promise<void>>();
  const clients: MqttClient[] = [];
  const ackQueues: PubackQueue[] = [];
  const subscribed = new Set<number>();
  let markReady!: () => void;
  const readyPromise = new Promise<void>((r) => (markReady = r));

  const connect = (index: number): MqttClient => {
    // Connection 0 keeps the plain client id: a session of the single-connection collector before it
    // (subscribed without a share group) is resumed, its backlog delivered, and its old filter dropped.
    const id = index === 0 ? clientId : `${clientId}-${index}`;
    const client = mqtt.connect(url, {
      clientId: id,
      clean: false,
      protocolVersion: 5,
      properties: {
        sessionExpiryInterval: options.sessionExpiryS ?? SESSION_EXPIRY_S,
        receiveMaximum: options.receiveMaximum ?? 100,
      },
      reconnectPeriod: options.reconnectPeriodMs ?? 1000,
      connectTimeout: 10_000,
      manualConnect: true,
      // We subscribe ourselves on every connect (below). With mqtt.js's own `resubscribe` on, it remembers
      // the filter, skips re-subscribing when the broker says the session is present, and also swallows an
      // explicit subscribe() to a filter it remembers, so no SUBSCRIBE goes out. Mosquitto 2.0 does not
      // keep shared subscriptions across its own restart (persist_write.c saves only non-shared ones), yet
      // answers sessionPresent: the collector then stayed connected and received nothing ever again.
      resubscribe: false,
    });
    // The PUBACKs of this connection, written after the commit (see the module comment).
    const acks = new PubackQueue(() => (client.connected ? client.stream : undefined));
    client.handleMessage = (packet, callback) => {
      const dropped = brokerDroppedCount(packet.topic, packet.payload);
      if (dropped !== undefined) {
        brokerDropped = dropped;
        callback();
        return;
      }
      if (stopping) {
        // Not acknowledged: the broker delivers it again to the next session.
        callback(new Error('collector stopping'));
        return;
      }
      // QoS 1 (the subscription's): held until stored, mqtt.js reads on meanwhile. QoS 0 has no PUBACK.
      const entry =
        packet.qos === 1 && packet.messageId !== undefined ? acks.receive(packet.messageId) : undefined;
      const work = handle(packet).then(
        () => {
          if (entry) acks.settle(entry, !aborted);
        },
        (error: unknown) => {
          // Only a batch that failed for good lands here: leave it unacknowledged.
          log.error({ err: error, topic: packet.topic }, 'mqtt: message not stored');
          if (entry) acks.settle(entry, false);
        },
      );
      inHand.add(work);
      void work.finally(() => inHand.delete(work));
      // An error makes mqtt.js skip its own PUBACK and read the next packet (puback-queue.ts).
      callback(entry ? HELD : undefined);
    };
    ackQueues.push(acks);
    client.on('close', () => acks.reset());
    client.on('connect', (connack) => {
      log.info({ url, clientId: id, sessionPresent: connack.sessionPresent }, 'mqtt: connected');
      // Every time, even when the session is present: subscribing again to the same filter replaces the
      // subscription (MQTT 5 §3.8.4), so a broker that kept it loses nothing, and one that forgot it (above)
      // has it back.
      const subscriptions = { [filter]: { qos: MQTT_TELEMETRY_QOS } } as Record<string, { qos: 0 | 1 }>;
      // One connection follows the broker's counters; QoS 0, so that nothing of them is ever queued.
      if (index === 0) subscriptions[BROKER_DROPPED_TOPIC] = { qos: 0 };
      client.subscribe(subscriptions, (error) => {
        if (error) return log.error({ err: error }, 'mqtt: subscribe failed');
        if (index === 0) client.unsubscribe(topics.filter);
        subscribed.add(index);
        if (subscribed.size === connections) markReady();
      });
    });
    client.on('error', (error) => warn.warn('connection', { err: error, url }, 'mqtt: connection error'));
    client.on('offline', () => warn.warn('offline', { url }, 'mqtt: broker unreachable, retrying'));
    client.connect();
    return client;
  };
  for (let i = 0; i < connections; i++) clients.push(connect(i));

  return {
    stats: () => ({ ...stats }),
    health: () => ({
      connections,
      connected: clients.filter((c) => c.connected).length,
      shareGroup,
      ...stats,
      brokerDroppedMessages: brokerDropped,
    }),
    ready: () => readyPromise,
    async stop() {
      if (stopping) return;
      stopping = true;
      await batcher.flush().catch(() => undefined);
      await Promise.allSettled([...inHand]);
      // The PUBACKs of what was stored go out before the DISCONNECT.
      for (const acks of ackQueues) acks.drain();
      await Promise.all(clients.map((c) => c.endAsync()));
    },
    async abort() {
      stopping = true;
      aborted = true;
      batcher.discardWaiting();
      await Promise.all(clients.map((c) => c.endAsync(true)));
    },
  };
}
