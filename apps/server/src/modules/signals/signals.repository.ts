import { sql } from 'kysely';
import type { z } from 'zod';
import type { DATA_TYPES, REGISTER_TYPES, Signal, WORD_ORDERS, signalListQuery } from '@solar/shared';
import { parseStoredValueMap } from '@solar/modbus';
import type { Db } from '../../db/database';
import { bool, iso, pageOf, searchAny } from '../../lib/listing';
import { reachable, type Scope } from '../../lib/scope';

export type SignalListFilter = z.output<typeof signalListQuery>;

export interface SignalValues {
  device_id: number;
  key: string;
  name: string;
  unit: string | null;
  data_type: (typeof DATA_TYPES)[number];
  register_type: (typeof REGISTER_TYPES)[number] | null;
  address: number | null;
  word_order: (typeof WORD_ORDERS)[number] | null;
  scale: number;
  is_counter: boolean;
  is_active: boolean;
  min_value: number | null;
  max_value: number | null;
  /** The state map as stored (JSON) or null; undefined leaves the stored map as it is. */
  value_map?: string | null;
}

const SORT_REFS: Record<SignalListFilter['sort']['column'], string> = {
  id: 'signals.id',
  key: 'signals.key',
  name: 'signals.name',
  unit: 'signals.unit',
  address: 'signals.address',
  device_name: 'devices.name',
  is_active: 'signals.is_active',
  created_at: 'signals.created_at',
  updated_at: 'signals.updated_at',
};

function scoped(db: Db, scope: Scope) {
  const q = db.selectFrom('signals').innerJoin('devices', 'devices.id', 'signals.device_id');
  return scope.all ? q : q.where('signals.device_id', 'in', reachable.devices(db, scope));
}

function selectSignal(q: ReturnType<typeof scoped>) {
  return q.selectAll('signals').select(['devices.name as device_name', 'devices.plant_id as plant_id']);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectSignal>['executeTakeFirstOrThrow']>>;
const toSignal = (r: Row): Signal => ({
  id: r.id,
  device_id: r.device_id,
  device_name: r.device_name,
  plant_id: r.plant_id,
  key: r.key,
  name: r.name,
  unit: r.unit,
  data_type: r.data_type as Signal['data_type'],
  register_type: r.register_type as Signal['register_type'],
  address: r.address,
  word_order: r.word_order as Signal['word_order'],
  scale: Number(r.scale),
  is_counter: bool(r.is_counter),
  is_active: bool(r.is_active),
  min_value: r.min_value === null ? null : Number(r.min_value),
  max_value: r.max_value === null ? null : Number(r.max_value),
  value_map: parseStoredValueMap(r.value_map),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/** One page of the signals the scope reaches, and how many there are. */
export async function listSignals(db: Db, scope: Scope, filter: SignalListFilter) {
  let q = scoped(db, scope);
  if (filter.is_active !== undefined) q = q.where('signals.is_active', '=', filter.is_active ? 1 : 0);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined) q = q.where('devices.plant_id', '=', filter.plant_id);
  if (filter.q) q = q.where(searchAny(['signals.key', 'signals.name', 'signals.unit'], filter.q));
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const direction = filter.sort.descending ? 'desc' : 'asc';
  const { limit, offset } = pageOf(filter);
  const rows = await selectSignal(q)
    .orderBy(sql.ref(SORT_REFS[filter.sort.column]), direction)
    .orderBy('signals.id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return { items: rows.map(toSignal), total: Number(total) };
}

/** A signal the scope reaches, or undefined. */
export async function findSignal(db: Db, scope: Scope, id: number): Promise<Signal | undefined> {
  const row = await selectSignal(scoped(db, scope)).where('signals.id', '=', id).executeTakeFirst();
  return row && toSignal(row);
}

/** True when the scope reaches the device (a new signal's parent). */
export async function deviceReachable(db: Db, scope: Scope, deviceId: number): Promise<boolean> {
  let q = db.selectFrom('devices').select('devices.id').where('devices.id', '=', deviceId);
  if (!scope.all) q = q.where('devices.id', 'in', reachable.devices(db, scope));
  return !!(await q.executeTakeFirst());
}

/** Another signal of the device already uses the key. */
export async function keyTaken(db: Db, deviceId: number, key: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('signals')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('key', '=', key)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return !!row;
}

const columns = (v: SignalValues) => ({
  ...v,
  is_counter: v.is_counter ? 1 : 0,
  is_active: v.is_active ? 1 : 0,
});

export async function insertSignal(db: Db, values: SignalValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('signals')
    .values({ ...columns(values), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateSignal(db: Db, id: number, values: SignalValues, now: number): Promise<void> {
  await db
    .updateTable('signals')
    .set({ ...columns(values), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteSignal(db: Db, id: number): Promise<void> {
  await db.deleteFrom('signals').where('id', '=', id).execute();
}

/** A signal of a register layout (a SunSpec model, a vendor's register template) to give a device. */
export interface LayoutSignal {
  key: string;
  name: string;
  unit: string | null;
  data_type: string;
  register_type: string;
  address: number;
  word_order: string;
  scale: number;
  is_counter: boolean;
  scale_factor_address?: number | null;
  sunspec_type?: string | null;
  /** A vendor's state value → the console's (register templates); the poller maps what it decodes. */
  value_map?: Readonly<Record<string, number>> | null;
}

/**
 * Gives a device the layout's signals it does not have yet (by key), in the caller's transaction: the
 * created ones with their ids, and the keys it already had. Applying a layout again creates nothing.
 */
export async function addLayoutSignals(
  trx: Db,
  deviceId: number,
  signals: readonly LayoutSignal[],
  now: number,
): Promise<{ created: { id: number; key: string }[]; skipped: string[] }> {
  const rows = await trx.selectFrom('signals').select('key').where('device_id', '=', deviceId).execute();
  const existing = new Set(rows.map((r) => r.key));
  const created: { id: number; key: string }[] = [];
  const skipped: string[] = [];
  for (const s of signals) {
    if (existing.has(s.key)) {
      skipped.push(s.key);
      continue;
    }
    existing.add(s.key);
    const { id } = await trx
      .insertInto('signals')
      .values({
        device_id: deviceId,
        key: s.key,
        name: s.name,
        unit: s.unit,
        data_type: s.data_type,
        register_type: s.register_type,
        address: s.address,
        word_order: s.word_order,
        scale: s.scale,
        scale_factor_address: s.scale_factor_address ?? null,
        sunspec_type: s.sunspec_type ?? null,
        value_map: s.value_map ? JSON.stringify(s.value_map) : null,
        is_counter: s.is_counter ? 1 : 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    created.push({ id, key: s.key });
  }
  return { created, skipped };
}
