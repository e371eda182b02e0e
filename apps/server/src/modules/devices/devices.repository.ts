import { sql } from 'kysely';
import type { z } from 'zod';
import {
  maskUrlSecret,
  type Device,
  type DeviceType,
  type Protocol,
  type deviceListQuery,
} from '@solar/shared';
import type { Db } from '../../db/database';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

export type DeviceListFilter = z.output<typeof deviceListQuery>;

export interface DeviceValues {
  plant_id: number;
  parent_device_id: number | null;
  name: string;
  type: DeviceType;
  brand: string | null;
  model: string | null;
  serial_number: string | null;
  rated_power_kw: number | null;
  protocol: Protocol;
  ip: string | null;
  port: number | null;
  slave_id: number | null;
  baud_rate: number | null;
  serial_path: string | null;
  mqtt_topic: string | null;
  poll_interval_s: number;
  snapshot_url: string | null;
  stream_url: string | null;
  is_active: boolean;
}

const SORT_REFS: Record<DeviceListFilter['sort']['column'], string> = {
  id: 'devices.id',
  name: 'devices.name',
  type: 'devices.type',
  brand: 'devices.brand',
  model: 'devices.model',
  serial_number: 'devices.serial_number',
  rated_power_kw: 'devices.rated_power_kw',
  protocol: 'devices.protocol',
  plant_name: 'plants.name',
  is_active: 'devices.is_active',
  created_at: 'devices.created_at',
  updated_at: 'devices.updated_at',
};

function scoped(db: Db, scope: Scope) {
  const q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .innerJoin('fields', 'fields.id', 'plants.field_id');
  return scope.all ? q : q.where('devices.plant_id', 'in', reachable.plants(db, scope));
}

function selectDevice(q: ReturnType<typeof scoped>) {
  return q
    .selectAll('devices')
    .select([
      'plants.name as plant_name',
      'plants.time_zone as plant_time_zone',
      'plants.field_id as field_id',
      'fields.company_id as company_id',
    ]);
}

const num = (v: number | null) => (v === null ? null : Number(v));

type Row = Awaited<ReturnType<ReturnType<typeof selectDevice>['executeTakeFirstOrThrow']>>;
const toDevice = (r: Row): Device => ({
  id: r.id,
  plant_id: r.plant_id,
  plant_name: r.plant_name,
  plant_time_zone: r.plant_time_zone,
  field_id: r.field_id,
  company_id: r.company_id,
  parent_device_id: r.parent_device_id,
  name: r.name,
  type: r.type as DeviceType,
  brand: r.brand,
  model: r.model,
  serial_number: r.serial_number,
  rated_power_kw: num(r.rated_power_kw),
  protocol: r.protocol as Protocol,
  ip: r.ip,
  port: r.port,
  slave_id: r.slave_id,
  baud_rate: r.baud_rate,
  serial_path: r.serial_path,
  mqtt_topic: r.mqtt_topic,
  poll_interval_s: r.poll_interval_s,
  // A camera's password stays on the server (the proxy uses it); reads show a mask in its place.
  snapshot_url: r.snapshot_url === null ? null : maskUrlSecret(r.snapshot_url),
  stream_url: r.stream_url === null ? null : maskUrlSecret(r.stream_url),
  is_active: bool(r.is_active),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** One page of the devices the scope reaches, and how many there are. */
export async function listDevices(db: Db, scope: Scope, filter: DeviceListFilter) {
  let q = scoped(db, scope);
  if (filter.is_active !== undefined) q = q.where('devices.is_active', '=', filter.is_active ? 1 : 0);
  if (filter.plant_id !== undefined) q = q.where('devices.plant_id', '=', filter.plant_id);
  if (filter.field_id !== undefined) q = q.where('plants.field_id', '=', filter.field_id);
  if (filter.company_id !== undefined) q = q.where('fields.company_id', '=', filter.company_id);
  if (filter.parent_device_id !== undefined)
    q = q.where('devices.parent_device_id', '=', filter.parent_device_id);
  if (filter.type !== undefined) q = q.where('devices.type', '=', filter.type);
  if (filter.protocol !== undefined) q = q.where('devices.protocol', '=', filter.protocol);
  if (filter.q) {
    q = q.where(
      searchAny(['devices.name', 'devices.brand', 'devices.model', 'devices.serial_number'], filter.q),
    );
  }
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await selectDevice(q)
    .orderBy(sql.ref(SORT_REFS[filter.sort.column]), direction)
    .orderBy('devices.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toDevice), total: Number(total) };
}

/** A device the scope reaches, or undefined. */
export async function findDevice(db: Db, scope: Scope, id: number): Promise<Device | undefined> {
  const row = await selectDevice(scoped(db, scope)).where('devices.id', '=', id).executeTakeFirst();
  return row && toDevice(row);
}

/** True when the scope reaches the plant (a new device's parent). */
export async function plantReachable(db: Db, scope: Scope, plantId: number): Promise<boolean> {
  let q = db.selectFrom('plants').select('plants.id').where('plants.id', '=', plantId);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return !!(await q.executeTakeFirst());
}

/** The parent device ids above `id`, nearest first (bounded, so a corrupt loop cannot hang). */
export async function ancestorsOf(db: Db, id: number, limit = 32): Promise<number[]> {
  const chain: number[] = [];
  let current: number | null = id;
  while (current !== null && chain.length < limit) {
    const row: { parent_device_id: number | null } | undefined = await db
      .selectFrom('devices')
      .select('parent_device_id')
      .where('id', '=', current)
      .executeTakeFirst();
    current = row?.parent_device_id ?? null;
    if (current !== null) chain.push(current);
  }
  return chain;
}

const columns = (v: DeviceValues) => ({ ...v, is_active: v.is_active ? 1 : 0 });

export async function insertDevice(db: Db, values: DeviceValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('devices')
    .values({ ...columns(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateDevice(db: Db, id: number, values: DeviceValues, now: number): Promise<void> {
  await db
    .updateTable('devices')
    .set({ ...columns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Signals and child devices that still hang under the device. */
export async function deviceChildren(db: Db, id: number): Promise<{ signals: number; devices: number }> {
  const signals = await db
    .selectFrom('signals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', id)
    .executeTakeFirstOrThrow();
  const devices = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_device_id', '=', id)
    .executeTakeFirstOrThrow();
  return { signals: Number(signals.n), devices: Number(devices.n) };
}

export async function deleteDevice(db: Db, id: number): Promise<void> {
  await db.deleteFrom('devices').where('id', '=', id).execute();
}

/** A device's camera addresses as stored, credentials included (for keeping a masked password on save). */
export async function storedCameraUrls(
  db: Db,
  id: number,
): Promise<{ snapshot_url: string | null; stream_url: string | null } | undefined> {
  return db
    .selectFrom('devices')
    .select(['snapshot_url', 'stream_url'])
    .where('id', '=', id)
    .executeTakeFirst();
}
