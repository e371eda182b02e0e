/**
 * The MQTT way in: subscribes to `solar/{plant_id}/{device_id}/telemetry` with QoS 1 on a persistent
 * session (clean: false and a fixed client id), so the broker keeps what devices publish while the server
 * is down and delivers it when it is back (MQTT 3.1.1 §3.1.2.4, §4.3.2).
 *
 * Acknowledgement: with `ack: 'stored'` (the default) a message's PUBACK goes out only after its points are
 * committed. mqtt.js sends the PUBACK of a QoS 1 message when `client.handleMessage(packet, callback)` calls
 * back, and hands over the next packet only then: so a message is stored on its own, one at a time (the
 * broker still streams up to its in-flight window ahead). A server that dies between receipt and commit
 * gets the message again on the next connection. `ack: 'received'` acknowledges at once and batches
 * (every `flushIntervalMs` or `maxBatchPoints`), which is faster but loses the batch in flight on a crash
 * (a clean stop still flushes it).
 */
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { MQTT_TELEMETRY_QOS } from '@solar/shared';
import { timeWindow } from '../../telemetry-store/point-validation';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import { RateLimitedWarn, type CollectorContext, type CollectorLog } from '../collector-context';
import { loadTopicDevice, type TopicDevice } from '../collectors.repository';
import { PointBatcher } from './point-batcher';
import {
  deviceRefusal,
  giveUpStoring,
  parseTelemetryMessage,
  pointsOf,
  stillFresh,
  storeRetryDelayMs,
  telemetryTopics,
} from './telemetry-message';

export interface MqttCollectorOptions {
  /** Broker and client id; default config.mqtt. */
  url?: string;
  clientId?: string;
  /** When a message is acknowledged to the broker; see the module comment. */
  ack?: 'stored' | 'received';
  /** `ack: 'received'` only: store at least this often … */
  flushIntervalMs?: number;
  /** … or when this many points wait. */
  maxBatchPoints?: number;
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
  /** Points stored (new or already there). */
  stored: number;
  /**
   * Points refused: unknown or inactive key, or what point-validation.ts refuses (epoch seconds, future,
   * too old, not a finite number, out of range); also counted per device in ctx.ingestCounts.
   */
  rejected: number;
  /** Messages refused whole: bad topic, bad JSON, bad shape, unknown or inactive device, wrong plant. */
  badMessages: number;
}

export interface MqttCollector {
  /** Stores what is waiting, unsubscribes nothing (the session keeps collecting) and disconnects. */
  stop(): Promise<void>;
  stats(): MqttCollectorStats;
  /** Resolves once connected and subscribed (the first time). */
  ready(): Promise<void>;
}

/** A key the cache does not know triggers a re-read of the device at most this often. */
const REFRESH_ON_MISS_MS = 1000;

/** Starts the collector on `config.mqtt` (or options); see the module comment. */
export function startMqttCollector(
  ctx: CollectorContext,
  log: CollectorLog,
  options: MqttCollectorOptions = {},
): MqttCollector {
  const url = options.url ?? ctx.config.mqtt?.url;
  const clientId = options.clientId ?? ctx.config.mqtt?.clientId;
  if (!url || !clientId) throw new Error('startMqttCollector needs config.mqtt');
  const ackMode = options.ack ?? 'stored';
  const flushIntervalMs = ackMode === 'stored' ? 0 : (options.flushIntervalMs ?? 200);
  const maxBatchPoints = options.maxBatchPoints ?? 5000;
  const ttl = options.deviceCacheTtlMs ?? 10_000;
  const topics = telemetryTopics(options.topicRoot ?? 'solar');
  const warn = new RateLimitedWarn(log, 10_000, ctx.now);
  const stats: MqttCollectorStats = { received: 0, stored: 0, rejected: 0, badMessages: 0 };
  const cache = new Map<number, { device: TopicDevice | undefined; loadedAt: number }>();
  let stopping = false;

  // --- Devices and their keys, cached ---
  const deviceOf = async (id: number, refresh = false): Promise<TopicDevice | undefined> => {
    const now = ctx.now();
    const hit = cache.get(id);
    if (hit && stillFresh(hit.loadedAt, now, refresh ? REFRESH_ON_MISS_MS : ttl)) return hit.device;
    const device = await loadTopicDevice(ctx.db, id);
    cache.set(id, { device, loadedAt: now });
    return device;
  };

  // --- Batching into the telemetry hub ---
  const storeWithRetry = async (points: PointToStore[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await ctx.telemetry.store(points);
        stats.stored += result.inserted + result.duplicates;
        return;
      } catch (error) {
        // Acknowledged messages are lost when we give up; unacknowledged ones come again next session.
        if (giveUpStoring(attempt, ackMode, stopping)) {
          log.error({ err: error, points: points.length }, 'mqtt: storing telemetry failed');
          throw error;
        }
        warn.warn('store', { err: error, attempt }, 'mqtt: storing telemetry failed, retrying');
        await new Promise((r) => setTimeout(r, storeRetryDelayMs(attempt)));
      }
    }
  };

  const batcher = new PointBatcher(storeWithRetry, flushIntervalMs, maxBatchPoints);

  // --- One message ---
  const bad = (reason: string, topic: string, details: Record<string, unknown> = {}) => {
    stats.badMessages++;
    warn.warn(`bad:${reason}`, { topic, reason, ...details }, 'mqtt: message refused');
  };
  const reject = (reason: string, topic: string, n: number, details: Record<string, unknown> = {}) => {
    stats.rejected += n;
    warn.warn(`reject:${reason}`, { topic, reason, ...details }, 'mqtt: values refused');
  };

  /** Checks and stores one message; never throws. Resolves when it may be acknowledged. */
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
    const window = timeWindow(ctx.now(), ctx.config.telemetry.rawRetentionDays);
    const { points, refused } = pointsOf(device, ts, values, window);
    for (const { reason, key } of refused) {
      reject(reason, topic, 1, { key: key.slice(0, 64), ts });
      ctx.ingestCounts.add(deviceId, reason);
    }
    if (!points.length) return;
    const stored = batcher.enqueue(points);
    if (ackMode === 'stored') await stored;
    else stored.catch(() => undefined);
  };

  // --- The connection ---
  const client: MqttClient = mqtt.connect(url, {
    clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: 10_000,
    manualConnect: true,
  });
  let markReady!: () => void;
  const readyPromise = new Promise<void>((r) => (markReady = r));
  let inFlight: Promise<void> = Promise.resolve();

  client.handleMessage = (packet, callback) => {
    if (stopping) {
      // Not acknowledged: the broker delivers it again to the next session.
      callback(new Error('collector stopping'));
      return;
    }
    const work = handle(packet).then(
      () => callback(),
      (error: unknown) => {
        // Only a store that failed for good lands here: leave it unacknowledged.
        log.error({ err: error, topic: packet.topic }, 'mqtt: message not stored');
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
    inFlight = work;
  };
  client.on('connect', (connack) => {
    log.info({ url, clientId, sessionPresent: connack.sessionPresent }, 'mqtt: connected');
    client.subscribe(topics.filter, { qos: MQTT_TELEMETRY_QOS }, (error) => {
      if (error) log.error({ err: error }, 'mqtt: subscribe failed');
      else markReady();
    });
  });
  client.on('error', (error) => warn.warn('connection', { err: error, url }, 'mqtt: connection error'));
  client.on('offline', () => warn.warn('offline', { url }, 'mqtt: broker unreachable, retrying'));
  client.connect();

  return {
    stats: () => ({ ...stats }),
    ready: () => readyPromise,
    async stop() {
      if (stopping) return;
      stopping = true;
      await inFlight.catch(() => undefined);
      await batcher.flush().catch(() => undefined);
      batcher.cancelTimer();
      await client.endAsync();
    },
  };
}
