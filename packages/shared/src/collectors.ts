import { z } from 'zod';
import { DEVICE_TYPES } from './devices';
import { SUNSPEC_BASE_ADDRESSES, SUNSPEC_MODELS } from './sunspec';
import { anyInstantField } from './dates';
import { V } from './validation';

/**
 * Telemetry ways in besides HTTP: MQTT messages and Modbus TCP polling, and the SunSpec calls
 * that fill a Modbus device's register map from the standard's models.
 */

/** Topic a device publishes its values on: `solar/{plant_id}/{device_id}/telemetry`. */
export const MQTT_TELEMETRY_TOPIC = 'solar/+/+/telemetry';
/** QoS the collector subscribes with: at least once, so nothing published while it is down is lost. */
export const MQTT_TELEMETRY_QOS = 1;

/**
 * An MQTT telemetry message: one timestamp (epoch ms or ISO 8601 with a zone) and values by signal key.
 * A value is any JSON here; one that is not a finite number is refused on its own, the rest are stored.
 */
export const mqttTelemetryPayload = z.object({
  ts: anyInstantField(),
  values: z.record(z.string(), z.unknown()),
});
export type MqttTelemetryPayload = z.input<typeof mqttTelemetryPayload>;

/**
 * The MQTT collector's state, for operators (GET /api/health/collectors): its connections in the share
 * group, what it received and stored since the server started, and how many messages the broker says it
 * dropped (Mosquitto's `$SYS/broker/publish/messages/dropped`; null while the broker has published none,
 * which Mosquitto does until its first drop, and always for brokers that do not publish it).
 */
export const mqttCollectorHealth = z.object({
  connections: z.number().int(),
  connected: z.number().int(),
  shareGroup: z.string(),
  received: z.number().int(),
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  badMessages: z.number().int(),
  batches: z.number().int(),
  brokerDroppedMessages: z.number().int().nullable(),
});
export type MqttCollectorHealth = z.infer<typeof mqttCollectorHealth>;

/**
 * The console's side of edge agents forwarding over MQTT (docs/edge.md, "Forwarding over MQTT"): whether it
 * is connected to the broker, and since the server started: messages received, batches stored and
 * acknowledged with the points in them (new or already there), and what it refused: points one by one,
 * malformed batches, batches not signed with their plant's live key, messages on other topics.
 */
export const edgeMqttCollectorHealth = z.object({
  connected: z.boolean(),
  received: z.number().int(),
  stored: z.number().int(),
  points: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  invalid: z.number().int(),
  unauthorised: z.number().int(),
  badTopics: z.number().int(),
});
export type EdgeMqttCollectorHealth = z.infer<typeof edgeMqttCollectorHealth>;

/** Polls missed in a row after which a device is in communication loss. */
export const COMM_LOSS_MISSED_POLLS = 3;
export const COMM_STATES = ['online', 'lost', 'unknown'] as const;
export type CommState = (typeof COMM_STATES)[number];

/** How many of a device's most recent polls its poll-time figures describe. */
export const MODBUS_POLL_WINDOW = 60;

/**
 * One Modbus device as its poller sees it: communication state and how long its polls take (the time from the
 * first register read to the last answer or timeout, over its last MODBUS_POLL_WINDOW polls), so a slow or
 * hanging device shows before it is lost.
 */
export const modbusDevicePolling = z.object({
  device_id: z.number().int(),
  plant_id: z.number().int(),
  /** Null only for a plant deleted since the poller last read its devices. */
  plant_name: z.string().nullable(),
  device_name: z.string(),
  state: z.enum(COMM_STATES),
  poll_interval_s: z.number().int(),
  /** Polls since the poller started polling it on this node, and of those the ones without an answer. */
  polls: z.number().int(),
  failed_polls: z.number().int(),
  last_poll_at: z.string().nullable(),
  last_poll_ms: z.number().nullable(),
  p95_poll_ms: z.number().nullable(),
  max_poll_ms: z.number().nullable(),
  last_error: z.string().nullable(),
});
export type ModbusDevicePolling = z.infer<typeof modbusDevicePolling>;

/**
 * The Modbus poller: it polls on one node of a cluster only, the holder of the jobs lease (`polling_here`);
 * the devices and their timings are this node's, so they are empty on the others.
 */
export const modbusCollectorHealth = z.object({
  polling_here: z.boolean(),
  devices: z.array(modbusDevicePolling),
});
export type ModbusCollectorHealth = z.infer<typeof modbusCollectorHealth>;

/**
 * GET /api/health/collectors: the collectors that run; `mqtt` and `edgeMqtt` are null when no broker is
 * configured, `modbus` when the poller is turned off (MODBUS_POLLER=false).
 */
export const collectorsHealthAnswer = z.object({
  mqtt: mqttCollectorHealth.nullable(),
  edgeMqtt: edgeMqttCollectorHealth.nullable(),
  modbus: modbusCollectorHealth.nullable(),
});
export type CollectorsHealth = z.infer<typeof collectorsHealthAnswer>;

/** SunSpec models the product ships signal mappings for. */
export const SUNSPEC_SHIPPED_MODELS = Object.keys(SUNSPEC_MODELS).map(Number);

const templateSignal = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  is_counter: z.boolean(),
  /** The standard's point name, `module[2].DCW` in a repeating block. */
  point: z.string(),
});

/** GET /api/sunspec/templates: the shipped templates with the signals each model gives. */
export const sunspecTemplatesAnswer = z.object({
  templates: z.array(
    z.object({
      id: z.string(),
      device_type: z.enum(DEVICE_TYPES),
      models: z.array(z.number().int()),
      required: z.array(z.number().int()),
    }),
  ),
  models: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      label: z.string(),
      /** Signals at the standard layout (model 160 with two MPPT inputs). */
      signals: z.array(templateSignal),
    }),
  ),
});
export type SunspecTemplatesAnswer = z.infer<typeof sunspecTemplatesAnswer>;

/** POST /api/devices/{id}/sunspec/discover: the models the device offers, in chain order. */
export const sunspecDiscoverAnswer = z.object({
  base_address: z.number().int(),
  models: z.array(
    z.object({
      id: z.number().int(),
      /** 0-based protocol address of the model's ID register. */
      address: z.number().int(),
      /** L: registers after ID and L. */
      length: z.number().int(),
      /** The label of a model the product ships; null for others. */
      label: z.string().nullable(),
      /** A shipped model: apply can create its signals. */
      supported: z.boolean(),
    }),
  ),
});
export type SunspecDiscoverAnswer = z.infer<typeof sunspecDiscoverAnswer>;

const modelId = z
  .number({ error: V.invalidNumber })
  .int({ error: V.invalidNumber })
  .refine((id) => SUNSPEC_SHIPPED_MODELS.includes(id), { error: V.invalidValue });

/**
 * POST /api/devices/{id}/sunspec/apply: `{ discovered: true }` walks the device's chain and creates the
 * signals of every shipped model it offers; `{ models }` creates those models' signals at the standard
 * layout (the chain of exactly these models, in this order, from `base_address`) without asking the device.
 */
export const sunspecApplyBody = z
  .object({
    discovered: z.literal(true, { error: V.invalidValue }).optional(),
    models: z
      .array(modelId, { error: V.invalidValue })
      .min(1, { error: V.required })
      .max(10, { error: V.tooMany })
      .refine((ids) => new Set(ids).size === ids.length, { error: V.duplicate })
      .optional(),
    base_address: z
      .number({ error: V.invalidNumber })
      .refine((a) => (SUNSPEC_BASE_ADDRESSES as readonly number[]).includes(a), { error: V.invalidValue })
      .default(40000),
    mppt_inputs: z
      .number({ error: V.invalidNumber })
      .int({ error: V.invalidNumber })
      .min(1, { error: V.outOfRange })
      .max(32, { error: V.outOfRange })
      .default(2),
  })
  .refine((b) => (b.discovered === undefined) !== (b.models === undefined), {
    error: V.oneOfRequired,
    path: ['models'],
  });
export type SunspecApplyBody = z.input<typeof sunspecApplyBody>;

export const sunspecApplyAnswer = z.object({
  /** Signals created, with their ids. */
  created: z.array(z.object({ id: z.number().int(), key: z.string() })),
  /** Keys the device already had (left alone) or that an earlier model in the request already gave. */
  skipped: z.array(z.string()),
  models: z.array(z.number().int()),
});
export type SunspecApplyAnswer = z.infer<typeof sunspecApplyAnswer>;
