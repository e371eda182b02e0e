/**
 * The MQTT collector's decisions, free of the broker, timers and SQL so that they can be tested alone:
 * which topics are ours, what a message says, which devices and values are refused, how long a device
 * is trusted and how storing is retried. mqtt-collector.ts does the I/O around them.
 */
import { MQTT_TELEMETRY_TOPIC, mqttTelemetryPayload } from '@solar/shared';
import { checkPoint, type PointCheckRefusal, type TimeWindow } from '../../telemetry-store/point-validation';
import type { PointToStore } from '../../telemetry-store/telemetry-hub';
import type { TopicDevice } from '../collectors.repository';

/** The subscription filter and the topic parser for one first topic level (`solar` in production). */
export interface TelemetryTopics {
  /** `{root}/+/+/telemetry`. */
  filter: string;
  /** Plant and device id of `{root}/{plant_id}/{device_id}/telemetry`; undefined for any other topic. */
  parse(topic: string): { plantId: number; deviceId: number } | undefined;
}

/** The topics under `root`; throws unless root is one plain topic level. */
export function telemetryTopics(root: string): TelemetryTopics {
  if (!/^[A-Za-z0-9_-]+$/.test(root)) throw new Error('topicRoot must be one plain topic level');
  const pattern = new RegExp(`^${root}/(\\d{1,10})/(\\d{1,10})/telemetry$`);
  return {
    filter: MQTT_TELEMETRY_TOPIC.replace(/^solar\//, `${root}/`),
    parse(topic) {
      const match = pattern.exec(topic);
      return match ? { plantId: Number(match[1]), deviceId: Number(match[2]) } : undefined;
    },
  };
}

/** Why a whole message is refused. */
export type MessageRefusal =
  'topic' | 'json' | 'shape' | 'unknown_device' | 'inactive_device' | 'wrong_plant';

/** A message read from its topic and payload, or why it was refused (with details for the log). */
export type ParsedMessage =
  | { ok: true; plantId: number; deviceId: number; ts: number; values: Record<string, unknown> }
  | { ok: false; reason: MessageRefusal; details?: Record<string, unknown> };

/** Reads `{ ts, values: { signal_key: number } }` (UTF-8 JSON) published on a telemetry topic. */
export function parseTelemetryMessage(
  topics: TelemetryTopics,
  topic: string,
  payload: Buffer | string,
): ParsedMessage {
  const ids = topics.parse(topic);
  if (!ids) return { ok: false, reason: 'topic' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return { ok: false, reason: 'json' };
  }
  const parsed = mqttTelemetryPayload.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      reason: 'shape',
      details: { issues: parsed.error.issues.slice(0, 3).map((i) => i.path.join('.')) },
    };
  }
  return { ok: true, ...ids, ts: parsed.data.ts, values: parsed.data.values };
}

/** Why the topic's device takes nothing: unknown, inactive, or in another plant than the topic says. */
export function deviceRefusal(device: TopicDevice | undefined, plantId: number): MessageRefusal | undefined {
  if (!device) return 'unknown_device';
  if (!device.is_active) return 'inactive_device';
  if (device.plant_id !== plantId) return 'wrong_plant';
  return undefined;
}

/** Why one value is refused: its key, or what point-validation.ts says of its timestamp and value. */
export type ValueRefusal = 'unknown_signal' | 'inactive_signal' | PointCheckRefusal;

/**
 * The points to store from a message's values, and the values refused, by key. Timestamp and value go
 * through the same check as HTTP ingest (point-validation.ts), so both ways in refuse the same points for
 * the same reasons.
 */
export function pointsOf(
  device: TopicDevice,
  ts: number,
  values: Record<string, unknown>,
  window: TimeWindow,
): { points: PointToStore[]; refused: { reason: ValueRefusal; key: string }[] } {
  const points: PointToStore[] = [];
  const refused: { reason: ValueRefusal; key: string }[] = [];
  for (const [key, value] of Object.entries(values)) {
    const signal = device.signals.get(key);
    if (signal === undefined) refused.push({ reason: 'unknown_signal', key });
    else if (signal === null) refused.push({ reason: 'inactive_signal', key });
    else {
      const reason = checkPoint(ts, typeof value === 'number' ? value : null, signal.bounds, window);
      if (reason) refused.push({ reason, key });
      else points.push({ signal_id: signal.id, ts, value: value as number });
    }
  }
  return { points, refused };
}

/** Whether a device read at `loadedAt` is still trusted at `now`, for at most `maxAgeMs`. */
export const stillFresh = (loadedAt: number, now: number, maxAgeMs: number): boolean =>
  now - loadedAt < maxAgeMs;

/** Wait (ms) before store attempt `attempt + 1`: 250 ms doubling, at most 5 s. */
export const storeRetryDelayMs = (attempt: number): number => Math.min(5000, 250 * 2 ** attempt);

/**
 * Whether to give up storing after a failed attempt: only when the collector stops. Until then it retries,
 * since its messages are not acknowledged and the broker holds them; giving up early would only make the
 * broker send them again.
 */
export const giveUpStoring = (stopping: boolean): boolean => stopping;

/**
 * The MQTT 5 shared subscription (`$share/{group}/{filter}`, MQTT 5 §4.8.2): the broker hands each message
 * to one subscriber of the group, so that several connections, and several server nodes, each process a
 * message once. Throws unless the group is one plain topic level.
 */
export function sharedFilter(group: string, filter: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(group)) throw new Error('share group must be one plain topic level');
  return `$share/${group}/${filter}`;
}

/** Where Mosquitto publishes how many messages it dropped (queue or in-flight limits reached). */
export const BROKER_DROPPED_TOPIC = '$SYS/broker/publish/messages/dropped';

/** The dropped count of a `$SYS` message, or undefined for any other topic or a payload that is no count. */
export function brokerDroppedCount(topic: string, payload: Buffer | string): number | undefined {
  if (topic !== BROKER_DROPPED_TOPIC) return undefined;
  const text = Buffer.from(payload).toString('utf8').trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}
