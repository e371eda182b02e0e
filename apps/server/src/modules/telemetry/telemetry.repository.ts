import type { RollupResolution } from '@solar/shared';
import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { ROLLUP_TABLE } from '../../telemetry-store/telemetry-store.repository';

/** Plant ids a limited scope reaches. */
export async function reachablePlantIds(db: Db, scope: Scope & { all: false }): Promise<Set<number>> {
  const rows = await reachable.plants(db, scope).execute();
  return new Set(rows.map((r) => r.id));
}

/** What a series carries besides its points. */
export interface SeriesSignal {
  signal_id: number;
  device_id: number;
  device_name: string;
  key: string;
  name: string;
  unit: string | null;
  is_counter: boolean;
  plant_id: number;
  plant_name: string;
  time_zone: string;
}

function signalQuery(db: Db, scope: Scope) {
  const q = db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select([
      'signals.id as signal_id',
      'signals.device_id',
      'devices.name as device_name',
      'signals.key',
      'signals.name',
      'signals.unit',
      'signals.is_counter',
      'devices.plant_id',
      'plants.name as plant_name',
      'plants.time_zone',
    ]);
  return scope.all ? q : q.where('devices.plant_id', 'in', reachable.plants(db, scope));
}

const toSeriesSignal = (r: {
  signal_id: number;
  device_id: number;
  device_name: string;
  key: string;
  name: string;
  unit: string | null;
  is_counter: number;
  plant_id: number;
  plant_name: string;
  time_zone: string;
}): SeriesSignal => ({ ...r, is_counter: r.is_counter === 1 });

/** The signals of these ids that the scope reaches. */
export async function seriesSignals(db: Db, scope: Scope, ids: readonly number[]): Promise<SeriesSignal[]> {
  const rows = await signalQuery(db, scope).where('signals.id', 'in', ids).orderBy('signals.id').execute();
  return rows.map(toSeriesSignal);
}

/** Raw points of the signals with ts in [from, to), per signal, oldest first. */
export async function rawPoints(db: Db, ids: readonly number[], from: number, to: number) {
  const rows = await db
    .selectFrom('telemetry_raw')
    .select(['signal_id', 'ts', 'value'])
    .where('signal_id', 'in', ids)
    .where('ts', '>=', from)
    .where('ts', '<', to)
    .orderBy('signal_id')
    .orderBy('ts')
    .execute();
  return rows.map((r) => ({ signal_id: r.signal_id, ts: Number(r.ts), value: r.value }));
}

export interface RollupPoint {
  signal_id: number;
  bucket: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  last: number;
  delta: number | null;
}

/** Rollup rows of the signals with bucket in [from, to), oldest first. */
export async function rollupPoints(
  db: Db,
  resolution: RollupResolution,
  ids: readonly number[],
  from: number,
  to: number,
): Promise<RollupPoint[]> {
  const rows = await db
    .selectFrom(ROLLUP_TABLE[resolution])
    .select(['signal_id', 'bucket', 'min', 'max', 'sum', 'count', 'last', 'delta'])
    .where('signal_id', 'in', ids)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .orderBy('signal_id')
    .orderBy('bucket')
    .execute();
  return rows.map((r) => ({
    signal_id: r.signal_id,
    bucket: Number(r.bucket),
    min: r.min,
    max: r.max,
    sum: r.sum,
    count: Number(r.count),
    last: r.last,
    delta: r.delta,
  }));
}

/** True when the scope reaches the device / plant. */
export async function deviceReachable(db: Db, scope: Scope, id: number): Promise<boolean> {
  let q = db.selectFrom('devices').select('devices.id').where('devices.id', '=', id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return !!(await q.executeTakeFirst());
}

export async function plantOf(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('plants').select(['plants.id', 'plants.time_zone']).where('plants.id', '=', id);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

export async function deviceWithZone(db: Db, scope: Scope, id: number) {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.id', 'devices.plant_id', 'plants.time_zone'])
    .where('devices.id', '=', id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  return q.executeTakeFirst();
}

/** Latest values of the signals of a device or of a plant. */
export async function latestValues(db: Db, filter: { device_id?: number; plant_id?: number }) {
  let q = db
    .selectFrom('telemetry_latest')
    .innerJoin('signals', 'signals.id', 'telemetry_latest.signal_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id as signal_id',
      'signals.device_id',
      'signals.key',
      'signals.unit',
      'telemetry_latest.ts',
      'telemetry_latest.value',
    ]);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined) q = q.where('devices.plant_id', '=', filter.plant_id);
  const rows = await q.orderBy('signals.device_id').orderBy('signals.id').execute();
  return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
}

/** The energy counters that count for a plant (inverters' total_energy) or a device (its total_energy). */
export async function energyCounters(db: Db, filter: { device_id?: number; plant_id?: number }) {
  let q = db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'signals.unit'])
    .where('signals.key', '=', 'total_energy')
    .where('signals.is_counter', '=', 1);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined)
    q = q.where('devices.plant_id', '=', filter.plant_id).where('devices.type', '=', 'inverter');
  return q.execute();
}

/** Daily counter deltas of the signals with day bucket in [from, to). */
export async function dailyDeltas(db: Db, ids: readonly number[], from: number, to: number) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('telemetry_1d')
    .select(['signal_id', 'bucket', 'delta'])
    .where('signal_id', 'in', ids)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .execute();
  return rows.map((r) => ({ signal_id: r.signal_id, bucket: Number(r.bucket), delta: r.delta ?? 0 }));
}

/** Active plants the scope reaches, with their field's name, by name (then id). */
export async function catalogPlants(db: Db, scope: Scope) {
  let q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .select(['plants.id', 'plants.name', 'fields.name as field_name', 'plants.time_zone'])
    .where('plants.is_active', '=', 1);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.orderBy('plants.name').orderBy('plants.id').execute();
}

/** Active devices of a plant, by name (then id). */
export async function catalogDevices(db: Db, plantId: number) {
  return db
    .selectFrom('devices')
    .select(['id', 'name', 'type', 'parent_device_id'])
    .where('plant_id', '=', plantId)
    .where('is_active', '=', 1)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Active signals of the active devices of a plant, by name (then id), in one query. */
export async function catalogSignals(db: Db, plantId: number) {
  const rows = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id',
      'signals.device_id',
      'signals.key',
      'signals.name',
      'signals.unit',
      'signals.is_counter',
    ])
    .where('devices.plant_id', '=', plantId)
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .orderBy('signals.name')
    .orderBy('signals.id')
    .execute();
  return rows.map((r) => ({ ...r, is_counter: r.is_counter === 1 }));
}
