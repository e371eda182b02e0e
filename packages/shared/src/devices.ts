import { z } from 'zod';
import {
  listAnswer,
  listQueryBase,
  queryFlag,
  rangedNumber,
  refFilter,
  refId,
  sortParam,
  timestamps,
  urlField,
} from './common';
import { V, flag, hasNoNul, ipField, optionalText, portField, requiredText } from './validation';

export const DEVICE_TYPES = [
  'inverter',
  'meter',
  'weather_station',
  'transformer',
  'protection_relay',
  'string_box',
  'data_logger',
  'camera',
] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const PROTOCOLS = ['modbus_tcp', 'modbus_rtu', 'mqtt', 'http'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Standard serial line speeds for Modbus RTU. */
export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const SLAVE_ID_MIN = 1;
export const SLAVE_ID_MAX = 247;

export const slaveIdField = () =>
  z.coerce
    .number({ error: V.slaveIdRange })
    .int({ error: V.slaveIdRange })
    .min(SLAVE_ID_MIN, { error: V.slaveIdRange })
    .max(SLAVE_ID_MAX, { error: V.slaveIdRange });

/**
 * Modbus TCP's unit id: 0…247. Over TCP 0 is no broadcast (that is RTU's meaning of address 0): a gateway
 * answers 0 for itself, as Huawei's SmartLogger ModBus Interface Definitions address the SmartLogger's own
 * registers (docs/vendor-templates.md, "huawei-smartlogger"); 1…247 are the devices behind it. RTU keeps
 * 1…247 (`slaveIdField`), where 0 would be a broadcast that no slave answers.
 */
export const TCP_UNIT_ID_MIN = 0;

export const tcpUnitIdField = () =>
  z.coerce
    .number({ error: V.unitIdRange })
    .int({ error: V.unitIdRange })
    .min(TCP_UNIT_ID_MIN, { error: V.unitIdRange })
    .max(SLAVE_ID_MAX, { error: V.unitIdRange });

export const baudRateField = () =>
  z.coerce
    .number({ error: V.baudRate })
    .refine((v) => (BAUD_RATES as readonly number[]).includes(v), { error: V.baudRate });

/**
 * A serial port's path: an absolute path of plain name characters (/dev/ttyUSB0, /dev/serial/by-id/…,
 * no `..`), or a Windows COM port. The server opens it as a serial port; what is not a tty fails to open.
 */
export const SERIAL_PATH_PATTERN = /^(?:(?:\/[A-Za-z0-9._+:@-]+)+|COM[1-9]\d{0,2})$/;
export const isSerialPath = (v: string) => SERIAL_PATH_PATTERN.test(v) && !v.split('/').includes('..');
export const serialPathField = () => requiredText(200).refine(isSerialPath, { error: V.invalidValue });

/** An MQTT topic filter (MQTT 3.1.1 §4.7): `+` and `#` fill a whole level, `#` only the last one. */
export function isMqttTopic(v: string): boolean {
  const levels = v.split('/');
  return (
    hasNoNul(v) &&
    levels.every((level, i) =>
      level.includes('#') ? level === '#' && i === levels.length - 1 : !level.includes('+') || level === '+',
    )
  );
}
export const mqttTopicField = () => requiredText(500).refine(isMqttTopic, { error: V.invalidValue });

const deviceBase = z.object({
  plant_id: refId(),
  /** Topology: inverter under a transformer, string box under an inverter. Null for a top-level device. */
  parent_device_id: refId().nullish(),
  name: requiredText(200),
  type: z.enum(DEVICE_TYPES, { error: V.invalidValue }),
  brand: optionalText(100),
  model: optionalText(100),
  serial_number: optionalText(100),
  rated_power_kw: rangedNumber(0, 1_000_000),
  poll_interval_s: z
    .number({ error: V.invalidNumber })
    .int({ error: V.invalidNumber })
    .min(1, { error: V.outOfRange })
    .max(86_400, { error: V.outOfRange })
    .default(60),
  snapshot_url: urlField(),
  stream_url: urlField(),
  is_active: flag().default(true),
});

/**
 * POST devices/{id} (0 creates). The connection settings depend on the protocol; settings of another
 * protocol are dropped.
 */
export const deviceBody = z.discriminatedUnion(
  'protocol',
  [
    deviceBase.extend({
      protocol: z.literal('modbus_tcp'),
      ip: ipField(),
      port: portField(),
      slave_id: tcpUnitIdField(),
    }),
    /**
     * RTU on a serial port of the server (`serial_path`), or through a gateway that passes RTU frames over
     * TCP (`ip` and `port`): one of the two, not both. Neither is allowed (as before these fields existed):
     * such a device is kept but not polled.
     */
    deviceBase
      .extend({
        protocol: z.literal('modbus_rtu'),
        slave_id: slaveIdField(),
        baud_rate: baudRateField(),
        serial_path: serialPathField().nullish(),
        ip: ipField().nullish(),
        port: portField().nullish(),
      })
      .superRefine((v, ctx) => {
        const serial = v.serial_path != null;
        const gateway = v.ip != null || v.port != null;
        if (serial && gateway) {
          ctx.addIssue({ code: 'custom', path: ['serial_path'], message: V.oneOfRequired });
        } else if (gateway && v.ip == null) {
          ctx.addIssue({ code: 'custom', path: ['ip'], message: V.required });
        } else if (gateway && v.port == null) {
          ctx.addIssue({ code: 'custom', path: ['port'], message: V.required });
        }
      }),
    deviceBase.extend({ protocol: z.literal('mqtt'), mqtt_topic: mqttTopicField() }),
    deviceBase.extend({ protocol: z.literal('http') }),
  ],
  { error: V.invalidValue },
);
export type DeviceBody = z.input<typeof deviceBody>;
export type DeviceBodyParsed = z.output<typeof deviceBody>;

/**
 * What device reads show in place of the password of a camera URL (`http://user:********@host/…`): the
 * credentials stay on the server. Sending a URL back with this mask keeps the stored password, as long as
 * the scheme, host, port and user are unchanged (so it cannot be sent to another address).
 */
export const URL_SECRET_MASK = '********';

/** The URL with its password replaced by URL_SECRET_MASK; anything that is not a URL unchanged. */
export function maskUrlSecret(value: string): string {
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = URL_SECRET_MASK;
    return url.toString();
  } catch {
    return value;
  }
}

export const deviceSchema = z.object({
  id: z.number().int(),
  plant_id: z.number().int(),
  plant_name: z.string(),
  /** The plant's IANA zone: the web shows the device's times on the plant's clock. */
  plant_time_zone: z.string(),
  field_id: z.number().int(),
  company_id: z.number().int(),
  parent_device_id: z.number().int().nullable(),
  name: z.string(),
  type: z.enum(DEVICE_TYPES),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  serial_number: z.string().nullable(),
  rated_power_kw: z.number().nullable(),
  protocol: z.enum(PROTOCOLS),
  ip: z.string().nullable(),
  port: z.number().int().nullable(),
  slave_id: z.number().int().nullable(),
  baud_rate: z.number().int().nullable(),
  /** modbus_rtu on a serial port of the server: its path; null over an RTU-over-TCP gateway (ip, port). */
  serial_path: z.string().nullable(),
  mqtt_topic: z.string().nullable(),
  poll_interval_s: z.number().int(),
  snapshot_url: z.string().nullable(),
  stream_url: z.string().nullable(),
  is_active: z.boolean(),
  ...timestamps,
});
export type Device = z.infer<typeof deviceSchema>;

export const DEVICE_SORTS = [
  'id',
  'name',
  'type',
  'brand',
  'model',
  'serial_number',
  'rated_power_kw',
  'protocol',
  'plant_name',
  'is_active',
  'created_at',
  'updated_at',
] as const;
/** GET devices */
export const deviceListQuery = listQueryBase.extend({
  sort: sortParam(DEVICE_SORTS, 'name'),
  is_active: queryFlag(),
  plant_id: refFilter(),
  field_id: refFilter(),
  company_id: refFilter(),
  parent_device_id: refFilter(),
  type: z.enum(DEVICE_TYPES, { error: V.invalidValue }).optional(),
  protocol: z.enum(PROTOCOLS, { error: V.invalidValue }).optional(),
});
export type DeviceListQuery = z.input<typeof deviceListQuery>;
export const deviceList = listAnswer(deviceSchema);
export type DeviceList = z.infer<typeof deviceList>;
