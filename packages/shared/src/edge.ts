/**
 * The contract between the console and a plant's edge agent (`apps/edge`, docs/edge.md).
 *
 * The agent holds one value besides the console's URL: a plant ingest key (`X-Api-Key`). With it, it
 * - reads its plant's Modbus devices and their signals (GET /api/edge/config), so devices are configured in
 *   one place only, the console;
 * - sends readings through the ordinary ingest (POST /api/telemetry), which answers only once the points are
 *   stored and stores a repeated point once: the answer is the agent's acknowledgement, and a resend after a
 *   crash duplicates nothing;
 * - reports its health (POST /api/edge/health), which also measures its clock against the console's.
 */
import { z } from 'zod';
import { DATA_TYPES, REGISTER_TYPES, WORD_ORDERS } from './signals';
import { DEVICE_TYPES } from './devices';
import { instantField, nullableInstantField } from './dates';
import { TELEMETRY_MAX_POINTS, telemetryIngestAnswer, telemetryPointInput } from './telemetry';

/** The protocols an agent polls itself; devices on MQTT or HTTP push to the console directly. */
export const EDGE_PROTOCOLS = ['modbus_tcp', 'modbus_rtu'] as const;

export const edgeSignal = z.object({
  id: z.number().int(),
  key: z.string(),
  data_type: z.enum(DATA_TYPES),
  register_type: z.enum(REGISTER_TYPES),
  address: z.number().int(),
  word_order: z.enum(WORD_ORDERS),
  scale: z.number(),
  /**
   * SunSpec: the register holding this point's scale factor (value × 10^sf), and the point's SunSpec type
   * (its "not implemented" value is no reading). The agent decodes exactly as the console's poller does.
   */
  scale_factor_address: z.number().int().nullable(),
  sunspec_type: z.string().nullable(),
  /** A vendor's state value → the console's status code (a register template's map); null: as read. */
  value_map: z.record(z.string(), z.number()).nullable(),
  is_counter: z.boolean(),
});
export type EdgeSignal = z.infer<typeof edgeSignal>;

export const edgeDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  protocol: z.enum(EDGE_PROTOCOLS),
  /** Modbus TCP, or an RTU-over-TCP gateway. */
  ip: z.string().nullable(),
  port: z.number().int().nullable(),
  slave_id: z.number().int().nullable(),
  baud_rate: z.number().int().nullable(),
  /** modbus_rtu on a serial port of the agent's machine. */
  serial_path: z.string().nullable(),
  poll_interval_s: z.number().int(),
  /** Active signals with a register; the others are not polled. */
  signals: z.array(edgeSignal),
});
export type EdgeDevice = z.infer<typeof edgeDevice>;

/** GET /api/edge/config */
export const edgeConfigAnswer = z.object({
  plant_id: z.number().int(),
  plant_time_zone: z.string(),
  /** Changes whenever anything below changes: the agent reloads when its health answer names another one. */
  config_version: z.string(),
  devices: z.array(edgeDevice),
});
export type EdgeConfigAnswer = z.infer<typeof edgeConfigAnswer>;

/** An agent id as health reports carry it; also a topic level (no `+`, `#` or `/`). */
export const EDGE_AGENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** POST /api/edge/health: what the agent knows about itself, every minute. */
export const edgeHealthBody = z.object({
  /** Stable per installation (the agent makes one on first start and keeps it in its data directory). */
  agent_id: z.string().regex(EDGE_AGENT_ID),
  version: z.string().min(1).max(40),
  /** The agent's clock when it sent this report: the console compares it with its own. */
  sent_at: instantField(),
  queue_depth: z.number().int().min(0),
  /** Reading time of the oldest reading not yet acknowledged; null with an empty queue. */
  oldest_unsent_at: nullableInstantField(),
  /** When the console last acknowledged a batch. */
  last_sent_at: nullableInstantField(),
  /** Readings dropped because the queue reached its bound, since the agent's first start. */
  dropped_total: z.number().int().min(0),
  /** Failed polls since the agent started. */
  poll_failures: z.number().int().min(0),
  uptime_s: z.number().int().min(0),
});
export type EdgeHealthBody = z.input<typeof edgeHealthBody>;

export const edgeHealthAnswer = z.object({
  /** The console's clock when it received the report. */
  server_time: z.string(),
  /** The agent's clock minus the console's, corrected by half the request's time on the wire when known. */
  clock_offset_ms: z.number().int(),
  config_version: z.string(),
});
export type EdgeHealthAnswer = z.infer<typeof edgeHealthAnswer>;

/**
 * An agent's clock may differ from the console's by this much before its readings' times are doubted: beyond
 * it the admin panel shows the offset as a problem and the plant's Modbus devices get an
 * `agent_clock_offset` data-quality flag until a report comes back within it (docs/edge.md).
 */
export const EDGE_CLOCK_OFFSET_BOUND_MS = 5_000;
/** An agent reports every minute; one silent for longer than this is shown as stale on the admin panel. */
export const EDGE_AGENT_STALE_MS = 5 * 60_000;

/** GET admin/collection-health: one row per edge agent of the plants in reach, from its latest report. */
export const edgeAgentHealthItem = z.object({
  plant_id: z.number().int(),
  plant_name: z.string(),
  plant_time_zone: z.string(),
  agent_id: z.string(),
  version: z.string(),
  /** The console's clock when the latest report arrived. */
  last_report_at: z.string(),
  clock_offset_ms: z.number().int(),
  queue_depth: z.number().int(),
  oldest_unsent_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  dropped_total: z.number().int(),
  poll_failures: z.number().int(),
  uptime_s: z.number().int(),
  /** No report for longer than EDGE_AGENT_STALE_MS. */
  stale: z.boolean(),
  /** |clock_offset_ms| beyond EDGE_CLOCK_OFFSET_BOUND_MS. */
  clock_problem: z.boolean(),
});
export type EdgeAgentHealthItem = z.infer<typeof edgeAgentHealthItem>;

/**
 * Readings over MQTT (docs/edge.md, "Forwarding over MQTT"), beside the HTTPS ingest: configuration and
 * health stay on HTTPS.
 *
 * The agent publishes a batch at QoS 1 on `solar/{plant_id}/edge/{agent_id}/readings`; the console stores
 * it as POST /api/telemetry stores a batch of the plant's ingest key (the same checks, the same refusals)
 * and, once the transaction holding it has committed, publishes an `EdgeAck` at QoS 1 on
 * `solar/{plant_id}/edge/{agent_id}/ack`. The agent removes a batch from its queue on that ack only: a
 * broker's PUBACK says the broker has the batch, not that the console stored it.
 *
 * Both directions are signed, since the key itself never goes over MQTT (any client the broker lets read
 * the topic would learn it): each message carries the MQTT 5 user property `mac`, the hex HMAC-SHA256 of
 * the exact payload bytes, keyed with the hex SHA-256 of the plant's ingest key, which is what the console
 * stores of a key. A batch whose mac does not match the plant's live key is not stored (`unauthorised`);
 * an ack whose mac does not match is ignored by the agent.
 */
export const EDGE_MQTT_READINGS_TOPIC = 'solar/+/edge/+/readings';
/** The user property holding a message's signature (see above). */
export const EDGE_MQTT_MAC_PROPERTY = 'mac';
export const EDGE_MQTT_QOS = 1;

/** Where an agent publishes its batches. */
export const edgeReadingsTopic = (plantId: number, agentId: string, root = 'solar') =>
  `${root}/${plantId}/edge/${agentId}/readings`;
/** Where the console answers them. */
export const edgeAckTopic = (plantId: number, agentId: string, root = 'solar') =>
  `${root}/${plantId}/edge/${agentId}/ack`;

/** One batch of readings, as the agent publishes it. */
export const edgeReadingsBatch = z.object({
  /** Chosen by the agent, unique per publish (a resend gets a new one): the ack names it. */
  batch_id: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/),
  points: z.array(telemetryPointInput).min(1).max(TELEMETRY_MAX_POINTS),
});
export type EdgeReadingsBatch = z.input<typeof edgeReadingsBatch>;

/**
 * What became of a batch: `stored` (committed; `rejected` lists the points refused one by one, as the
 * ingest's answer does), `invalid` (a malformed batch: it cannot become valid by waiting, the agent drops it
 * and counts it) or `unauthorised` (no live ingest key of the plant signs it: the agent keeps it and waits).
 */
export const EDGE_BATCH_OUTCOMES = ['stored', 'invalid', 'unauthorised'] as const;
export const edgeAck = z.object({
  batch_id: z.string(),
  outcome: z.enum(EDGE_BATCH_OUTCOMES),
  stored: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  rejected: telemetryIngestAnswer.shape.rejected,
});
export type EdgeAck = z.infer<typeof edgeAck>;
