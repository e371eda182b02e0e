import { effectiveBounds, type CommState, type ValueBounds } from '@solar/shared';
import type { Db } from '../db/database';
import type { PolledSignal } from './modbus/register-map';

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

/** An active Modbus TCP device with what polling it needs. */
export interface PolledDevice {
  id: number;
  plant_id: number;
  name: string;
  ip: string;
  port: number;
  slave_id: number;
  poll_interval_s: number;
  signals: PolledSignal[];
  /**
   * The values each signal accepts, by signal id (a plain object, so that deviceFingerprint sees a change
   * of bounds and the loop restarts with the new ones).
   */
  bounds: Record<number, ValueBounds>;
}

/** Active modbus_tcp devices with an address, and their active signals. */
export async function loadModbusDevices(db: Db): Promise<PolledDevice[]> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'plant_id', 'name', 'ip', 'port', 'slave_id', 'poll_interval_s', 'rated_power_kw'])
    .where('protocol', '=', 'modbus_tcp')
    .where('is_active', '=', 1)
    .where('ip', 'is not', null)
    .where('port', 'is not', null)
    .orderBy('id')
    .execute();
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
      'signals.unit',
      'signals.min_value',
      'signals.max_value',
    ])
    .where('devices.protocol', '=', 'modbus_tcp')
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .orderBy('signals.id')
    .execute();
  const byDevice = new Map<number, PolledSignal[]>();
  const limits = new Map<
    number,
    { unit: string | null; min_value: number | null; max_value: number | null }
  >();
  for (const { device_id, unit, min_value, max_value, ...s } of signals) {
    const list = byDevice.get(device_id) ?? [];
    list.push({ ...s, scale: Number(s.scale) });
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
    ip: d.ip!,
    port: d.port!,
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
