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
import {
  MQTT_TELEMETRY_QOS,
  MQTT_TELEMETRY_TOPIC,
  TELEMETRY_FUTURE_TOLERANCE_MS,
  mqttTelemetryPayload,
} from '@solar/shared';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import { RateLimitedWarn, type CollectorContext, type CollectorLog } from '../collector-context';
import { loadTopicDevice, type TopicDevice } from '../collectors.repository';

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
  /** Points refused: unknown or inactive key, not a finite number, timestamp in the future. */
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

interface Waiting {
  points: PointToStore[];
  done: Promise<void>;
  resolve(): void;
}

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
  const root = options.topicRoot ?? 'solar';
  if (!/^[A-Za-z0-9_-]+$/.test(root)) throw new Error('topicRoot must be one plain topic level');
  const topicFilter = MQTT_TELEMETRY_TOPIC.replace(/^solar\//, `${root}/`);
  const topicPattern = new RegExp(`^${root}/(\\d{1,10})/(\\d{1,10})/telemetry$`);
  const warn = new RateLimitedWarn(log, 10_000, ctx.now);
  const stats: MqttCollectorStats = { received: 0, stored: 0, rejected: 0, badMessages: 0 };
  const cache = new Map<number, { device: TopicDevice | undefined; loadedAt: number }>();
  let stopping = false;

  // --- Devices and their keys, cached ---
  const deviceOf = async (id: number, refresh = false): Promise<TopicDevice | undefined> => {
    const now = ctx.now();
    const hit = cache.get(id);
    if (hit && now - hit.loadedAt < (refresh ? REFRESH_ON_MISS_MS : ttl)) return hit.device;
    const device = await loadTopicDevice(ctx.db, id);
    cache.set(id, { device, loadedAt: now });
    return device;
  };

  // --- Batching into the telemetry hub ---
  let waiting: Waiting | undefined;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const storeWithRetry = async (points: PointToStore[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await ctx.telemetry.store(points);
        stats.stored += result.inserted + result.duplicates;
        return;
      } catch (error) {
        // Acknowledged messages are lost when we give up; unacknowledged ones come again next session.
        if (stopping || (ackMode === 'received' && attempt >= 2)) {
          log.error({ err: error, points: points.length }, 'mqtt: storing telemetry failed');
          throw error;
        }
        warn.warn('store', { err: error, attempt }, 'mqtt: storing telemetry failed, retrying');
        await new Promise((r) => setTimeout(r, Math.min(5000, 250 * 2 ** attempt)));
      }
    }
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = undefined;
    if (!batch) return flushing;
    flushing = flushing.then(() =>
      storeWithRetry(batch.points).then(
        () => batch.resolve(),
        () => {
          batch.resolve();
          throw new Error('not stored');
        },
      ),
    );
    const mine = flushing;
    flushing = flushing.catch(() => undefined);
    return mine;
  };

  /** Queues points; resolves when they are stored, rejects when they could not be. */
  const enqueue = (points: PointToStore[]): Promise<void> => {
    if (!waiting) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      waiting = { points: [], done, resolve };
    }
    const batch = waiting;
    batch.points.push(...points);
    const stored = new Promise<void>((resolve, reject) => {
      const result = batch.points.length >= maxBatchPoints || flushIntervalMs === 0 ? flush() : undefined;
      if (result) result.then(resolve, reject);
      else {
        timer ??= setTimeout(() => void flush().catch(() => undefined), flushIntervalMs);
        void batch.done.then(resolve);
      }
    });
    return stored;
  };

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
    const match = topicPattern.exec(topic);
    if (!match) return bad('topic', topic);
    const plantId = Number(match[1]);
    const deviceId = Number(match[2]);
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(packet.payload).toString('utf8'));
    } catch {
      return bad('json', topic);
    }
    const parsed = mqttTelemetryPayload.safeParse(json);
    if (!parsed.success) {
      return bad('shape', topic, { issues: parsed.error.issues.slice(0, 3).map((i) => i.path.join('.')) });
    }
    const { ts, values } = parsed.data;
    let cached = await deviceOf(deviceId);
    if (!cached || !cached.is_active || cached.plant_id !== plantId) cached = await deviceOf(deviceId, true);
    if (!cached) return bad('unknown_device', topic);
    if (!cached.is_active) return bad('inactive_device', topic);
    if (cached.plant_id !== plantId) return bad('wrong_plant', topic);
    let device: TopicDevice = cached;
    const entries = Object.entries(values);
    if (ts > ctx.now() + TELEMETRY_FUTURE_TOLERANCE_MS)
      return reject('future', topic, entries.length, { ts });
    if (entries.some(([key]) => !device.signals.has(key)))
      device = (await deviceOf(deviceId, true)) ?? device;
    const points: PointToStore[] = [];
    for (const [key, value] of entries) {
      const signalId = device.signals.get(key);
      if (signalId === undefined) reject('unknown_signal', topic, 1, { key: key.slice(0, 64) });
      else if (signalId === null) reject('inactive_signal', topic, 1, { key });
      else if (typeof value !== 'number' || !Number.isFinite(value)) reject('non_finite', topic, 1, { key });
      else points.push({ signal_id: signalId, ts, value });
    }
    if (!points.length) return;
    const stored = enqueue(points);
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
    client.subscribe(topicFilter, { qos: MQTT_TELEMETRY_QOS }, (error) => {
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
      await flush().catch(() => undefined);
      clearTimeout(timer);
      await client.endAsync();
    },
  };
}
