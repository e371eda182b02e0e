import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { kwhPerUnitSql } from '../../telemetry-store/energy-units';
import { fromTelemetry } from '../../telemetry-store/queries';

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

/**
 * Latest values of the signals of a device or of a plant that the scope reaches (none when it does not: the
 * caller tells an empty owner from an unreachable one only when nothing comes back).
 */
export async function latestValues(db: Db, scope: Scope, filter: { device_id?: number; plant_id?: number }) {
  let q = fromTelemetry(db, 'latest', 'latest')
    .innerJoin('signals', 'signals.id', 'latest.signal_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select([
      'signals.id as signal_id',
      'signals.device_id',
      'signals.key',
      'signals.unit',
      'latest.ts',
      'latest.value',
    ]);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  if (filter.plant_id !== undefined) q = q.where('devices.plant_id', '=', filter.plant_id);
  if (!scope.all) q = q.where('devices.plant_id', 'in', reachable.plants(db, scope));
  // The driver's rows as they are: the service builds the answer's objects from them in one pass.
  return q.orderBy('signals.device_id').orderBy('signals.id').execute();
}

/**
 * Energy in kWh per day bucket in [from, to) of the `total_energy` counters of a plant's active inverters
 * (the inverter sum: the plant's own energy is the KPI engine's, meter first) or of a device, in one
 * query: the database sums the counters' daily deltas per day, converting Wh and MWh to kWh (any other
 * unit is taken as kWh), so a year of a plant is 365 rows instead of one per inverter and day. A delta
 * that is not a finite number (written before ingest bounds existed) is left out rather than turning the
 * day into ±Infinity.
 */
export async function dailyEnergyKwh(
  db: Db,
  filter: { device_id?: number; plant_id?: number },
  from: number,
  to: number,
): Promise<{ bucket: number; kwh: number }[]> {
  let q = fromTelemetry(db, '1d', 'daily')
    .innerJoin('signals', 'signals.id', 'daily.signal_id')
    .select((eb) => [
      'daily.bucket',
      eb.fn.sum<number>(eb(eb.ref('daily.delta'), '*', kwhPerUnitSql(sql.ref('signals.unit')))).as('kwh'),
    ])
    .where('signals.key', '=', 'total_energy')
    .where('signals.is_counter', '=', 1)
    .where('daily.bucket', '>=', from)
    .where('daily.bucket', '<', to)
    .where('daily.delta', '>', -1e308)
    .where('daily.delta', '<', 1e308);
  if (filter.device_id !== undefined) q = q.where('signals.device_id', '=', filter.device_id);
  // The inverters the KPI engine sums (kpi loadPlantSignals): active devices, active counters.
  if (filter.plant_id !== undefined)
    q = q
      .where('signals.is_active', '=', 1)
      .where('signals.device_id', 'in', (eb) =>
        eb
          .selectFrom('devices')
          .select('devices.id')
          .where('devices.plant_id', '=', filter.plant_id!)
          .where('devices.type', '=', 'inverter')
          .where('devices.is_active', '=', 1),
      );
  const rows = await q.groupBy('daily.bucket').execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), kwh: Number(r.kwh) }));
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
