/**
 * Edge agents' batches over MQTT (packages/shared/src/edge.ts, docs/edge.md "Forwarding over MQTT"):
 * `solar/{plant_id}/edge/{agent_id}/readings`, as the shared subscription `$share/{group}/solar/+/edge/+/readings`
 * on a persistent session (clean start off, a fixed client id, a session expiry), like the telemetry topic
 * (mqtt-collector.ts), so that the broker keeps what agents publish while the console is down.
 *
 * A batch is signed with the plant's ingest key (its SHA-256 as HMAC key); it is stored by the very function
 * that stores an HTTPS ingest of that key (`ingest`), so both ways refuse the same points, and the console
 * answers on `…/ack` only after that transaction has committed. The agent removes a batch on that answer
 * alone. A message is PUBACKed once handled; a console that dies before the ack leaves the batch in the
 * agent's queue, which sends it again, and the store keeps a repeated (signal, ts) once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import {
  type EdgeMqttCollectorHealth,
  EDGE_AGENT_ID,
  EDGE_MQTT_MAC_PROPERTY,
  EDGE_MQTT_QOS,
  EDGE_MQTT_READINGS_TOPIC,
  edgeAckTopic,
  edgeReadingsBatch,
  type EdgeAck,
  type TelemetryIngestAnswer,
} from '@solar/shared';
import type { z } from 'zod';
import type { IngestPrincipal } from '../../plugins/auth';
import { RateLimitedWarn, type CollectorLog } from '../collector-context';
import { sharedFilter } from './telemetry-message';

/** A plant's live ingest key as the collector sees it: never the key, only its hash. */
export interface PlantKey {
  principal: IngestPrincipal;
  keyHash: string;
  lastUsedAt: number | null;
}

/** What the collector asks of the console's modules (wired in background.ts). */
export interface EdgeReadingsPorts {
  plantKey(plantId: number): Promise<PlantKey | undefined>;
  markUsed(key: PlantKey): Promise<void>;
  /** Stores as POST /api/telemetry does for this key; resolves once committed. */
  ingest(
    principal: IngestPrincipal,
    points: z.output<typeof edgeReadingsBatch>['points'],
  ): Promise<TelemetryIngestAnswer>;
}

export interface EdgeReadingsOptions {
  url: string;
  /** The session's client id (the telemetry collector's id with `-edge`). */
  clientId: string;
  shareGroup: string;
  /** First topic level instead of `solar` (tests sharing one broker keep apart with it). */
  topicRoot?: string;
  sessionExpiryS?: number;
  reconnectPeriodMs?: number;
}

export interface EdgeReadingsStats {
  received: number;
  /** Batches committed and acknowledged. */
  stored: number;
  /** Points of those batches stored (new or already there). */
  points: number;
  duplicates: number;
  /** Points refused one by one (listed in the ack). */
  rejected: number;
  /** Batches refused whole: malformed payload (acknowledged `invalid` when it names a batch id). */
  invalid: number;
  /** Batches without a valid signature of the plant's live key. */
  unauthorised: number;
  /** Messages on a topic that is not an agent's readings topic. */
  badTopics: number;
}

export interface EdgeReadingsCollector {
  ready(): Promise<void>;
  stats(): EdgeReadingsStats;
  /** The stats and the broker connection, for GET /api/health/collectors. */
  health(): EdgeMqttCollectorHealth;
  stop(): Promise<void>;
}

/** The hex HMAC-SHA256 of a payload under a key's SHA-256 (the contract's signature). */
export const edgeMac = (keyHash: string, payload: Buffer | string): string =>
  createHmac('sha256', keyHash).update(payload).digest('hex');

/** Whether `mac` is the payload's signature under `keyHash`, compared in constant time. */
export function macMatches(keyHash: string, payload: Buffer, mac: unknown): boolean {
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(edgeMac(keyHash, payload), 'hex'), Buffer.from(mac, 'hex'));
}

/** Plant and agent of `{root}/{plant_id}/edge/{agent_id}/readings`, else undefined. */
export function parseEdgeTopic(
  root: string,
  topic: string,
): { plantId: number; agentId: string } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 5 || parts[0] !== root || parts[2] !== 'edge' || parts[4] !== 'readings')
    return undefined;
  if (!/^\d{1,10}$/.test(parts[1]!) || !EDGE_AGENT_ID.test(parts[3]!)) return undefined;
  return { plantId: Number(parts[1]), agentId: parts[3]! };
}

/** The batch id of a payload that is JSON with one, so that even a malformed batch gets its answer. */
function batchIdOf(json: unknown): string | undefined {
  const id = (json as { batch_id?: unknown } | null)?.batch_id;
  return typeof id === 'string' && /^[A-Za-z0-9._-]{1,80}$/.test(id) ? id : undefined;
}

const userProperty = (packet: IPublishPacket, name: string): unknown => {
  const value = packet.properties?.userProperties?.[name];
  return Array.isArray(value) ? value[0] : value;
};

const SESSION_EXPIRY_S = 7 * 86_400;

/** Subscribes to the agents' readings topic and stores, then acknowledges, each batch (module comment). */
export function startEdgeReadingsCollector(
  ports: EdgeReadingsPorts,
  log: CollectorLog,
  options: EdgeReadingsOptions,
): EdgeReadingsCollector {
  const root = options.topicRoot ?? 'solar';
  const filter = sharedFilter(options.shareGroup, EDGE_MQTT_READINGS_TOPIC.replace(/^solar\//, `${root}/`));
  const warn = new RateLimitedWarn(log, 10_000);
  const stats: EdgeReadingsStats = {
    received: 0,
    stored: 0,
    points: 0,
    duplicates: 0,
    rejected: 0,
    invalid: 0,
    unauthorised: 0,
    badTopics: 0,
  };
  let markReady!: () => void;
  const readyPromise = new Promise<void>((r) => (markReady = r));

  const client: MqttClient = mqtt.connect(options.url, {
    clientId: options.clientId,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: options.sessionExpiryS ?? SESSION_EXPIRY_S, receiveMaximum: 20 },
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: 10_000,
    // Subscribed on every connect (below), for the reason given in mqtt-collector.ts: Mosquitto 2.0 forgets
    // shared subscriptions over its restart and still answers sessionPresent.
    resubscribe: false,
  });

  /**
   * The answer, signed with the same key, at QoS 1. Its PUBACK is not awaited: mqtt.js reads the broker's
   * packets, that PUBACK among them, only after handleMessage called back, so waiting here would wait for
   * ever. An answer lost with the connection leaves the batch queued at the agent, which sends it again.
   */
  const answer = (plantId: number, agentId: string, keyHash: string, ack: EdgeAck) => {
    const payload = Buffer.from(JSON.stringify(ack));
    client
      .publishAsync(edgeAckTopic(plantId, agentId, root), payload, {
        qos: EDGE_MQTT_QOS,
        properties: { userProperties: { [EDGE_MQTT_MAC_PROPERTY]: edgeMac(keyHash, payload) } },
      })
      .catch((error: unknown) =>
        warn.warn('ack', { err: error, plantId, agentId }, 'mqtt edge: ack not sent'),
      );
  };
  const refused = (batchId: string, outcome: 'invalid' | 'unauthorised'): EdgeAck => ({
    batch_id: batchId,
    outcome,
    stored: 0,
    duplicates: 0,
    rejected: [],
  });

  const handle = async (packet: IPublishPacket): Promise<void> => {
    stats.received++;
    const ids = parseEdgeTopic(root, packet.topic);
    if (!ids) {
      stats.badTopics++;
      return warn.warn('topic', { topic: packet.topic }, 'mqtt edge: not a readings topic');
    }
    const payload = Buffer.from(packet.payload);
    const key = await ports.plantKey(ids.plantId);
    const mac = userProperty(packet, EDGE_MQTT_MAC_PROPERTY);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = undefined;
    }
    const batchId = batchIdOf(json);
    if (!key || !macMatches(key.keyHash, payload, mac)) {
      stats.unauthorised++;
      warn.warn(`unauthorised:${ids.plantId}`, { ...ids }, 'mqtt edge: batch not signed by the plant key');
      // Answered only when there is a key to sign with: an agent with a stale key learns why it waits.
      if (key && batchId) answer(ids.plantId, ids.agentId, key.keyHash, refused(batchId, 'unauthorised'));
      return;
    }
    const batch = edgeReadingsBatch.safeParse(json);
    if (!batch.success) {
      stats.invalid++;
      warn.warn(
        `invalid:${ids.plantId}`,
        { ...ids, issues: batch.error.issues.slice(0, 3).map((i) => i.path.join('.')) },
        'mqtt edge: malformed batch refused',
      );
      if (batchId) answer(ids.plantId, ids.agentId, key.keyHash, refused(batchId, 'invalid'));
      return;
    }
    const result = await ports.ingest(key.principal, batch.data.points);
    await ports.markUsed(key);
    stats.stored++;
    stats.points += result.stored;
    stats.duplicates += result.duplicates;
    stats.rejected += result.rejected.length;
    answer(ids.plantId, ids.agentId, key.keyHash, {
      batch_id: batch.data.batch_id,
      outcome: 'stored',
      stored: result.stored,
      duplicates: result.duplicates,
      rejected: result.rejected,
    });
  };

  // mqtt.js PUBACKs when this calls back and reads the next message only then: one batch at a time per
  // console node, each one transaction of up to 10,000 points. An error (the database away) leaves the
  // message unacknowledged; the agent's own timeout sends the batch again either way.
  client.handleMessage = (packet, callback) => {
    handle(packet).then(
      () => callback(),
      (error: unknown) => {
        log.error({ err: error, topic: packet.topic }, 'mqtt edge: batch not stored');
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  };
  client.on('connect', () => {
    client.subscribe({ [filter]: { qos: EDGE_MQTT_QOS } }, (error) => {
      if (error) return log.error({ err: error }, 'mqtt edge: subscribe failed');
      markReady();
    });
  });
  client.on('error', (error) => warn.warn('connection', { err: error }, 'mqtt edge: connection error'));
  client.on('offline', () => warn.warn('offline', {}, 'mqtt edge: broker unreachable, retrying'));

  return {
    ready: () => readyPromise,
    stats: () => ({ ...stats }),
    health: () => ({ connected: client.connected, ...stats }),
    async stop() {
      await client.endAsync();
    },
  };
}
