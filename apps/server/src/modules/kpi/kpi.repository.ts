import { countActiveAlarms, type ActiveAlarmCount } from '../alarms';
import type { Db } from '../../db/database';
import type { KpiDailyTable } from '../../db/schema';
import { reachable, type Scope } from '../../lib/scope';
import { localDate } from '../../telemetry-store/buckets';
import { kwhPerUnit } from '../../telemetry-store/energy-units';
import { fromTelemetry, leftJoinTelemetry } from '../../telemetry-store/queries';
import type { MonthBudgets } from './engine/budget';
import { KPI_DEVICE_TYPES, KPI_SIGNAL_KEYS, roleOf, type SignalRole } from './signal-map';

/** Ids per statement: far below either dialect's bind-parameter limit. */
const ID_CHUNK = 5_000;

async function inChunks<T>(ids: readonly number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length <= ID_CHUNK) return read([...ids]);
  let out: T[] = [];
  // concat, not push(...rows): a chunk of a large fleet has more rows than a call may have arguments.
  for (let i = 0; i < ids.length; i += ID_CHUNK) out = out.concat(await read(ids.slice(i, i + ID_CHUNK)));
  return out;
}

const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** What the KPIs need of a plant. */
export interface KpiPlant {
  id: number;
  name: string;
  fieldId: number;
  companyId: number;
  companyName: string;
  dcCapacityKwp: number | null;
  acCapacityKw: number | null;
  latitude: number | null;
  longitude: number | null;
  tiltDeg: number | null;
  azimuthDeg: number | null;
  timeZone: string;
  gammaPerK: number;
  systemLossFraction: number;
}

/** The plants the scope reaches (one, when `id` is given), by id. */
export async function findKpiPlants(db: Db, scope: Scope, id?: number): Promise<KpiPlant[]> {
  let q = db
    .selectFrom('plants')
    .innerJoin('fields', 'fields.id', 'plants.field_id')
    .innerJoin('companies', 'companies.id', 'fields.company_id')
    .select([
      'plants.id',
      'plants.name',
      'plants.field_id',
      'fields.company_id',
      'companies.name as company_name',
      'plants.dc_capacity_kwp',
      'plants.ac_capacity_kw',
      'plants.latitude',
      'plants.longitude',
      'plants.tilt_deg',
      'plants.azimuth_deg',
      'plants.time_zone',
      'plants.temperature_coefficient_per_k',
      'plants.system_loss_fraction',
    ])
    .orderBy('plants.id');
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  if (id !== undefined) q = q.where('plants.id', '=', id);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    fieldId: r.field_id,
    companyId: r.company_id,
    companyName: r.company_name,
    dcCapacityKwp: num(r.dc_capacity_kwp),
    acCapacityKw: num(r.ac_capacity_kw),
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    tiltDeg: num(r.tilt_deg),
    azimuthDeg: num(r.azimuth_deg),
    timeZone: r.time_zone,
    gammaPerK: Number(r.temperature_coefficient_per_k),
    systemLossFraction: Number(r.system_loss_fraction),
  }));
}

export interface KpiSignal {
  signalId: number;
  /** Its device: a data-quality flag on any of the device's signals concerns its energy too. */
  deviceId: number;
  isCounter: boolean;
  /** kWh per unit of its values (telemetry-store/energy-units.ts): an energy counter in Wh reads 0.001. */
  kwhPerUnit: number;
}

export interface KpiInverter {
  deviceId: number;
  name: string;
  ratedAcKw: number | null;
  pollIntervalS: number;
  acPower?: KpiSignal;
  energyTotal?: KpiSignal;
  energyToday?: KpiSignal;
  /** Active-power limit in force, % (signal-map inverterPowerLimitPct): curtailment. */
  powerLimitPct?: KpiSignal;
}

/** A plant's KPI inputs resolved from its devices and signals (signal-map.ts). */
export interface PlantSignals {
  /** The first weather station's signals by role (a plant may have several stations; the lowest id wins). */
  weather: Partial<
    Record<'poa' | 'ghi' | 'moduleTemperature' | 'ambientTemperature' | 'windSpeed', KpiSignal>
  >;
  /** Every active inverter, with or without signals (one that never reports still counts in availability). */
  inverters: KpiInverter[];
  meterExport?: KpiSignal;
  /** The first meter's grid availability, 0/1 (signal-map gridAvailable): grid outages. */
  gridAvailable?: KpiSignal;
}

const emptySignals = (): PlantSignals => ({ weather: {}, inverters: [] });

/**
 * The KPI inputs of many plants in one query: their active weather stations, inverters and meters with
 * the active signals whose (device type, key) the KPIs read.
 */
export async function loadPlantSignals(
  db: Db,
  plantIds: readonly number[],
): Promise<Map<number, PlantSignals>> {
  const out = new Map<number, PlantSignals>(plantIds.map((id) => [id, emptySignals()]));
  const rows = await inChunks(plantIds, (part) =>
    db
      .selectFrom('devices')
      .leftJoin('signals', (join) =>
        join
          .onRef('signals.device_id', '=', 'devices.id')
          .on('signals.is_active', '=', 1)
          .on('signals.key', 'in', KPI_SIGNAL_KEYS),
      )
      .select([
        'devices.id as device_id',
        'devices.plant_id',
        'devices.type',
        'devices.name',
        'devices.rated_power_kw',
        'devices.poll_interval_s',
        'signals.id as signal_id',
        'signals.key',
        'signals.is_counter',
        'signals.unit',
      ])
      .where('devices.plant_id', 'in', part)
      .where('devices.is_active', '=', 1)
      .where('devices.type', 'in', KPI_DEVICE_TYPES)
      .orderBy('devices.id')
      .orderBy('signals.id')
      .execute(),
  );
  const inverters = new Map<number, KpiInverter>();
  for (const r of rows) {
    const plant = out.get(r.plant_id)!;
    if (r.type === 'inverter' && !inverters.has(r.device_id)) {
      const inv: KpiInverter = {
        deviceId: r.device_id,
        name: r.name,
        ratedAcKw: num(r.rated_power_kw),
        pollIntervalS: r.poll_interval_s,
      };
      inverters.set(r.device_id, inv);
      plant.inverters.push(inv);
    }
    if (r.signal_id === null || r.key === null) continue;
    const role: SignalRole | undefined = roleOf(r.type, r.key);
    if (!role) continue;
    const signal = {
      signalId: r.signal_id,
      deviceId: r.device_id,
      isCounter: r.is_counter === 1,
      kwhPerUnit: kwhPerUnit(r.unit),
    };
    if (r.type === 'inverter') {
      const inv = inverters.get(r.device_id)!;
      if (role === 'inverterAcPower') inv.acPower ??= signal;
      else if (role === 'inverterEnergyTotal') inv.energyTotal ??= signal;
      else if (role === 'inverterEnergyToday') inv.energyToday ??= signal;
      else if (role === 'inverterPowerLimitPct') inv.powerLimitPct ??= signal;
    } else if (r.type === 'meter') {
      if (role === 'meterExportEnergy') plant.meterExport ??= signal;
      else if (role === 'gridAvailable') plant.gridAvailable ??= signal;
    } else if (
      role === 'poa' ||
      role === 'ghi' ||
      role === 'moduleTemperature' ||
      role === 'ambientTemperature' ||
      role === 'windSpeed'
    ) {
      plant.weather[role] ??= signal;
    }
  }
  return out;
}

export interface DeviceSamples {
  deviceId: number;
  name: string;
  type: string;
  pollIntervalS: number;
  /** The day's sample count of the device's most sampled signal (its polls). */
  receivedSamples: number;
  /** 5-minute buckets of the day in which any of its active signals has data. */
  bucketsWithData: number;
  /** The width of those buckets, s: 300, or 3600 when the day is held as hourly rollups only. */
  bucketS: number;
}

/**
 * Each active device of a plant with active signals: its poll interval, the day's sample count (daily
 * rollup) and the 5-minute buckets of the local day [dayStartMs, dayEndMs) that hold any of its data.
 */
export async function readDaySamples(
  db: Db,
  plantId: number,
  dayStartMs: number,
  dayEndMs: number,
): Promise<DeviceSamples[]> {
  const devices = () =>
    db
      .selectFrom('devices')
      .innerJoin('signals', 'signals.device_id', 'devices.id')
      .where('devices.plant_id', '=', plantId)
      .where('devices.is_active', '=', 1)
      .where('signals.is_active', '=', 1);
  const rows = await devices()
    .$call((q) => leftJoinTelemetry(q, '1d', 'daily', { signal: 'signals.id', time: { at: dayStartMs } }))
    .select((eb) => [
      'devices.id',
      'devices.name',
      'devices.type',
      'devices.poll_interval_s',
      eb.fn.max('daily.count').as('samples'),
    ])
    .groupBy(['devices.id', 'devices.name', 'devices.type', 'devices.poll_interval_s'])
    .orderBy('devices.id')
    .execute();
  const buckets = await devices()
    .$call((q) =>
      leftJoinTelemetry(q, '5m', 'five', {
        signal: 'signals.id',
        time: { from: dayStartMs, through: dayEndMs - 1 },
      }),
    )
    .select((eb) => ['devices.id', eb.fn.count('five.bucket').distinct().as('buckets')])
    .groupBy('devices.id')
    .execute();
  const bucketsOf = new Map(buckets.map((b) => [b.id, Number(b.buckets)]));
  // A day without any 5-minute bucket may be held as hourly rollups only (a history written hourly): its
  // hours are then the buckets its samples are counted in.
  const hoursOf = new Map<number, number>();
  if (rows.some((r) => Number(r.samples ?? 0) > 0 && !bucketsOf.get(r.id)))
    for (const h of await devices()
      .$call((q) =>
        leftJoinTelemetry(q, '1h', 'hours', {
          signal: 'signals.id',
          time: { from: dayStartMs, through: dayEndMs - 1 },
        }),
      )
      .select((eb) => ['devices.id', eb.fn.count('hours.bucket').distinct().as('buckets')])
      .groupBy('devices.id')
      .execute())
      hoursOf.set(h.id, Number(h.buckets));
  return rows.map((r) => {
    const fives = bucketsOf.get(r.id) ?? 0;
    const hours = fives === 0 ? (hoursOf.get(r.id) ?? 0) : 0;
    return {
      deviceId: r.id,
      name: r.name,
      type: r.type,
      pollIntervalS: r.poll_interval_s,
      receivedSamples: Number(r.samples ?? 0),
      bucketsWithData: hours > 0 ? hours : fives,
      bucketS: hours > 0 ? 3_600 : 300,
    };
  });
}

export type ActiveAlarmRow = ActiveAlarmCount;

/**
 * Active alarms of the plants and their devices, counted by priority and source: the alarms module's one
 * definition (countActiveAlarms), so plant and device pages count what the badge and /alarms count.
 */
export function readActiveAlarms(db: Db, plantIds: readonly number[]): Promise<ActiveAlarmRow[]> {
  return countActiveAlarms(db, { all: true }, plantIds);
}

export type KpiDailyRow = KpiDailyTable;

/** Stored days of a plant with date in [fromDate, toDate). */
export async function readKpiDays(
  db: Db,
  plantId: number,
  fromDate: string,
  toDate: string,
): Promise<KpiDailyRow[]> {
  const rows = await db
    .selectFrom('kpi_daily')
    .selectAll()
    .where('plant_id', '=', plantId)
    .where('date', '>=', fromDate)
    .where('date', '<', toDate)
    .orderBy('date')
    .execute();
  return rows.map(numericRow);
}

/**
 * The PR inputs of the stored days of the plants in scope on any of these dates (the overview's
 * yesterdays): the energy and the in-plane irradiation over the intervals the PR counts.
 */
export async function readDailyPrInputs(
  db: Db,
  scope: Scope,
  dates: readonly string[],
): Promise<{ plantId: number; date: string; prEnergyKwh: number; prIrradiationKwhM2: number }[]> {
  if (dates.length === 0) return [];
  let q = db
    .selectFrom('kpi_daily')
    .select(['plant_id', 'date', 'pr_energy_kwh', 'pr_irradiation_kwh_m2'])
    .where('date', 'in', dates);
  if (!scope.all) q = q.where('plant_id', 'in', reachable.plants(db, scope));
  return (await q.execute()).map((r) => ({
    plantId: r.plant_id,
    date: r.date,
    prEnergyKwh: Number(r.pr_energy_kwh),
    prIrradiationKwhM2: Number(r.pr_irradiation_kwh_m2),
  }));
}

function numericRow(r: KpiDailyRow): KpiDailyRow {
  const out = { ...r } as Record<string, unknown>;
  for (const [k, v] of Object.entries(r))
    if (typeof v === 'string' && !['date', 'energy_source', 'irradiance_source', 'params_key'].includes(k))
      out[k] = Number(v);
  return out as unknown as KpiDailyRow;
}

export async function upsertKpiDay(db: Db, row: KpiDailyRow): Promise<void> {
  const { plant_id: _p, date: _d, ...rest } = row;
  await db
    .insertInto('kpi_daily')
    .values(row)
    .onConflict((oc) => oc.columns(['plant_id', 'date']).doUpdateSet(rest))
    .execute();
}

/**
 * The plant's kpi_day_versions counter, which a trigger moves on with every write of its kpi_daily rows
 * (migration 0138): 0 before its first stored day.
 */
export async function readKpiDayVersion(db: Db, plantId: number): Promise<number> {
  const r = await db
    .selectFrom('kpi_day_versions')
    .select('version')
    .where('plant_id', '=', plantId)
    .executeTakeFirst();
  return r ? Number(r.version) : 0;
}

/** Whether any of the plant's days in [fromDate, toDate) is marked dirty. */
export async function hasDirtyDays(db: Db, plantId: number, fromDate: string, toDate: string) {
  const r = await db
    .selectFrom('kpi_dirty_days')
    .select('date')
    .where('plant_id', '=', plantId)
    .where('date', '>=', fromDate)
    .where('date', '<', toDate)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** Marks (plant, local date) pairs as changed since computed; a repeated mark moves marked_at on. */
export async function markDirty(db: Db, marks: readonly { plantId: number; date: string }[], now: number) {
  for (let i = 0; i < marks.length; i += 1000) {
    await db
      .insertInto('kpi_dirty_days')
      .values(marks.slice(i, i + 1000).map((m) => ({ plant_id: m.plantId, date: m.date, marked_at: now })))
      .onConflict((oc) => oc.columns(['plant_id', 'date']).doUpdateSet({ marked_at: now }))
      .execute();
  }
}

const SLOT_MS = 15 * 60_000;

/**
 * Marks the plant's local days holding `instantsMs` as changed: for history written as rollups only
 * (telemetry-store/history-rollups.ts), which no store listener sees, so its days would otherwise never be
 * computed and stay out of every KPI, report and performance answer.
 */
export async function markDaysOfInstantsDirty(
  db: Db,
  plantId: number,
  timeZone: string,
  instantsMs: Iterable<number>,
  now: number,
): Promise<void> {
  const dates = new Set<string>();
  // One calendar lookup per 15-minute slot (as jobs/kpi-refresh.ts): no zone offset splits a slot.
  const slots = new Set<number>();
  for (const ts of instantsMs) slots.add(Math.floor(ts / SLOT_MS));
  for (const slot of slots) dates.add(localDate(slot * SLOT_MS, timeZone));
  await markDirty(
    db,
    [...dates].map((date) => ({ plantId, date })),
    now,
  );
}

export interface DirtyDay {
  plantId: number;
  date: string;
  markedAt: number;
}

/** Dirty days of the plants in [fromDate, toDate), oldest mark first; all plants when plantIds is null. */
export async function readDirtyDays(
  db: Db,
  plantIds: readonly number[] | null,
  fromDate: string,
  toDate: string,
  limit = 10_000,
): Promise<DirtyDay[]> {
  let q = db
    .selectFrom('kpi_dirty_days')
    .select(['plant_id', 'date', 'marked_at'])
    .where('date', '>=', fromDate)
    .where('date', '<', toDate);
  if (plantIds) {
    if (plantIds.length === 0) return [];
    q = q.where('plant_id', 'in', plantIds);
  }
  const rows = await q.orderBy('marked_at').limit(limit).execute();
  return rows.map((r) => ({ plantId: r.plant_id, date: r.date, markedAt: Number(r.marked_at) }));
}

/** Clears a mark unless it was renewed after `markedAt` (late data arrived during the computation). */
export async function clearDirty(db: Db, plantId: number, date: string, markedAt: number): Promise<void> {
  await db
    .deleteFrom('kpi_dirty_days')
    .where('plant_id', '=', plantId)
    .where('date', '=', date)
    .where('marked_at', '<=', markedAt)
    .execute();
}

/** The time zone of each plant. */
export async function readTimeZones(db: Db, plantIds: readonly number[]): Promise<Map<number, string>> {
  const rows = await inChunks(plantIds, (part) =>
    db.selectFrom('plants').select(['id', 'time_zone']).where('id', 'in', part).execute(),
  );
  return new Map(rows.map((r) => [r.id, r.time_zone]));
}

/** True when no day was ever materialised (a database from before kpi_daily, or a fresh one). */
export async function kpiDailyEmpty(db: Db): Promise<boolean> {
  return !(await db.selectFrom('kpi_daily').select('plant_id').limit(1).executeTakeFirst());
}

/** (plant, day bucket) pairs that have daily rollups: what a database from before kpi_daily must compute. */
export async function readRolledUpDays(
  db: Db,
): Promise<{ plantId: number; bucket: number; timeZone: string }[]> {
  const rows = await fromTelemetry(db, '1d', 'daily')
    .innerJoin('signals', 'signals.id', 'daily.signal_id')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.plant_id', 'daily.bucket', 'plants.time_zone'])
    .distinct()
    .execute();
  return rows.map((r) => ({ plantId: r.plant_id, bucket: Number(r.bucket), timeZone: r.time_zone }));
}

export interface InverterDevice {
  deviceId: number;
  plantId: number;
  name: string;
  ratedAcKw: number | null;
  pollIntervalS: number;
}

/** An active or inactive inverter the scope reaches. */
export async function findInverter(db: Db, scope: Scope, id: number): Promise<InverterDevice | undefined> {
  let q = db
    .selectFrom('devices')
    .select(['id', 'plant_id', 'name', 'rated_power_kw', 'poll_interval_s'])
    .where('id', '=', id)
    .where('type', '=', 'inverter');
  if (!scope.all) q = q.where('devices.id', 'in', reachable.devices(db, scope));
  const r = await q.executeTakeFirst();
  return (
    r && {
      deviceId: r.id,
      plantId: r.plant_id,
      name: r.name,
      ratedAcKw: num(r.rated_power_kw),
      pollIntervalS: r.poll_interval_s,
    }
  );
}

/** Every active signal of a device with its latest value. */
export async function readDeviceLatest(
  db: Db,
  deviceId: number,
): Promise<{ signalId: number; key: string; ts: number | null; value: number | null }[]> {
  const rows = await db
    .selectFrom('signals')
    .$call((q) => leftJoinTelemetry(q, 'latest', 'latest', { signal: 'signals.id' }))
    .select(['signals.id', 'signals.key', 'latest.ts', 'latest.value'])
    .where('signals.device_id', '=', deviceId)
    .where('signals.is_active', '=', 1)
    .execute();
  return rows.map((r) => ({ signalId: r.id, key: r.key, ts: num(r.ts), value: num(r.value) }));
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Budgets of the plants for the years `fromYear`…`toYear`, per plant keyed `YYYY-MM`. */
export async function readBudgets(
  db: Db,
  plantIds: readonly number[],
  fromYear: number,
  toYear: number,
): Promise<Map<number, MonthBudgets>> {
  const out = new Map<number, Map<string, { energyKwh: number; irradiationKwhM2: number | null }>>();
  if (!plantIds.length) return out;
  const rows = await db
    .selectFrom('plant_budgets')
    .selectAll()
    .where('plant_id', 'in', [...plantIds])
    .where('year', '>=', fromYear)
    .where('year', '<=', toYear)
    .execute();
  for (const r of rows) {
    let m = out.get(r.plant_id);
    if (!m)
      out.set(r.plant_id, (m = new Map<string, { energyKwh: number; irradiationKwhM2: number | null }>()));
    m.set(`${r.year}-${pad2(Number(r.month))}`, {
      energyKwh: Number(r.energy_kwh),
      irradiationKwhM2: r.irradiation_kwh_m2 === null ? null : Number(r.irradiation_kwh_m2),
    });
  }
  return out;
}
