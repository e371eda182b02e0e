import { effectiveBounds, type CommState, type ValueBounds } from '@solar/shared';
import type { Db } from '../db/database';
import { parseStoredValueMap, type PolledSignal } from '@solar/modbus';

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

/** An active Modbus TCP or RTU device with what polling it needs. */
export interface PolledDevice {
  id: number;
  plant_id: number;
  name: string;
  /** Modbus TCP: the device's address. Modbus RTU: the RTU-over-TCP gateway's, or null on a serial port. */
  ip: string | null;
  port: number | null;
  /** Modbus RTU only: the line's speed and, on a serial port of this server, its path. */
  rtu?: { baud_rate: number; serial_path: string | null };
  slave_id: number;
  poll_interval_s: number;
  signals: PolledSignal[];
  /**
   * The values each signal accepts, by signal id (a plain object, so that deviceFingerprint sees a change
   * of bounds and the loop restarts with the new ones).
   */
  bounds: Record<number, ValueBounds>;
}

const POLLED_PROTOCOLS = ['modbus_tcp', 'modbus_rtu'];

/**
 * Active modbus_tcp devices with an address, active modbus_rtu devices with a baud rate and a serial path
 * or a gateway's address, and their active signals.
 */
export async function loadModbusDevices(db: Db): Promise<PolledDevice[]> {
  const rows = await db
    .selectFrom('devices')
    .select([
      'id',
      'plant_id',
      'name',
      'protocol',
      'ip',
      'port',
      'serial_path',
      'baud_rate',
      'slave_id',
      'poll_interval_s',
      'rated_power_kw',
    ])
    .where('protocol', 'in', POLLED_PROTOCOLS)
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
  const hasGateway = (d: (typeof rows)[number]) => d.ip !== null && d.port !== null;
  const devices = rows.filter((d) =>
    d.protocol === 'modbus_tcp'
      ? hasGateway(d)
      : d.baud_rate !== null && (d.serial_path !== null || hasGateway(d)),
  );
  if (!devices.length) return [];
  const signals = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id',
      'signals.device_id',
      'signals.key',
      'signals.data_type',
      'signals.register_type',
      'signals.address',
      'signals.word_order',
      'signals.scale',
      'signals.scale_factor_address',
      'signals.sunspec_type',
      'signals.value_map',
      'signals.unit',
      'signals.min_value',
      'signals.max_value',
    ])
    .where('devices.protocol', 'in', POLLED_PROTOCOLS)
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .orderBy('signals.id')
    .execute();
  const byDevice = new Map<number, PolledSignal[]>();
  const limits = new Map<
    number,
    { unit: string | null; min_value: number | null; max_value: number | null }
  >();
  for (const { device_id, unit, min_value, max_value, value_map, ...s } of signals) {
    const list = byDevice.get(device_id) ?? [];
    list.push({ ...s, scale: Number(s.scale), value_map: parseStoredValueMap(value_map) });
    byDevice.set(device_id, list);
    limits.set(s.id, { unit, min_value: numberOrNull(min_value), max_value: numberOrNull(max_value) });
  }
  const boundsOf = (d: { id: number; rated_power_kw: number | null }) =>
    Object.fromEntries(
      (byDevice.get(d.id) ?? []).map((s) => [
        s.id,
        effectiveBounds(limits.get(s.id)!, numberOrNull(d.rated_power_kw)),
      ]),
    );
  return devices.map((d) => ({
    id: d.id,
    plant_id: d.plant_id,
    name: d.name,
    ip: d.serial_path === null ? d.ip : null,
    port: d.serial_path === null ? d.port : null,
    ...(d.protocol === 'modbus_rtu' ? { rtu: { baud_rate: d.baud_rate!, serial_path: d.serial_path } } : {}),
    // Modbus TCP devices without a unit id answer to 1 or 255; 1 is the common choice.
    slave_id: d.slave_id ?? 1,
    poll_interval_s: d.poll_interval_s,
    signals: byDevice.get(d.id) ?? [],
    bounds: boundsOf(d),
  }));
}

export interface DeviceStatusRow {
  device_id: number;
  comm_state: CommState;
  missed_polls: number;
  last_ok_at: number | null;
  last_error: string | null;
  changed_at: number;
}

export async function loadDeviceStatuses(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, DeviceStatusRow>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('device_status')
    .select(['device_id', 'comm_state', 'missed_polls', 'last_ok_at', 'last_error', 'changed_at'])
    .where('device_id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.device_id,
      {
        ...r,
        missed_polls: Number(r.missed_polls),
        last_ok_at: r.last_ok_at === null ? null : Number(r.last_ok_at),
        changed_at: Number(r.changed_at),
      },
    ]),
  );
}

/** Insert or update a device's status row (an upsert both dialects speak). */
export async function saveDeviceStatus(db: Db, row: DeviceStatusRow, now: number): Promise<void> {
  const values = { ...row, last_error: row.last_error?.slice(0, 500) ?? null, updated_at: now };
  await db
    .insertInto('device_status')
    .values(values)
    .onConflict((oc) =>
      oc.column('device_id').doUpdateSet({
        comm_state: values.comm_state,
        missed_polls: values.missed_polls,
        last_ok_at: values.last_ok_at,
        last_error: values.last_error,
        changed_at: values.changed_at,
        updated_at: now,
      }),
    )
    .execute();
}

/** A signal as ingest checks values against it: its id and the values it accepts. */
export interface CheckedSignal {
  id: number;
  bounds: ValueBounds;
}

/** A device as the MQTT collector checks a topic against it, with its signals by key. */
export interface TopicDevice {
  id: number;
  plant_id: number;
  is_active: boolean;
  /** Signal by key, active signals only; inactive keys map to null. */
  signals: Map<string, CheckedSignal | null>;
}

export async function loadTopicDevice(db: Db, id: number): Promise<TopicDevice | undefined> {
  const device = await db
    .selectFrom('devices')
    .select(['id', 'plant_id', 'is_active', 'rated_power_kw'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!device) return undefined;
  const signals = await db
    .selectFrom('signals')
    .select(['id', 'key', 'is_active', 'unit', 'min_value', 'max_value'])
    .where('device_id', '=', id)
    .execute();
  const rating = numberOrNull(device.rated_power_kw);
  return {
    id: device.id,
    plant_id: device.plant_id,
    is_active: device.is_active === 1,
    signals: new Map(
      signals.map((s) => [
        s.key,
        s.is_active === 1
          ? {
              id: s.id,
              bounds: effectiveBounds(
                { unit: s.unit, min_value: numberOrNull(s.min_value), max_value: numberOrNull(s.max_value) },
                rating,
              ),
            }
          : null,
      ]),
    ),
  };
}
