import { countActiveAlarms, type ActiveAlarmCount } from '../alarms';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';
import { kwhPerUnitSql } from '../../telemetry-store/energy-units';
import { leftJoinTelemetry } from '../../telemetry-store/queries';
import { COMM_LOST_AFTER_POLLS, COMM_LOST_MIN_MS } from './engine';
import { SIGNAL_ROLES } from './signal-map';

/**
 * The fleet overview's reads (the aim: 2,000 plants in under 300 ms, docs/benchmarks.md). Each one aggregates
 * per plant in the database and answers a row or two per plant, however many devices and signals the plants
 * have; the plants are chosen by a sub-select (scope, time zone), never by a list of ids sent along.
 *
 * Today's figures depend on each plant's local midnight: those reads take today's start per time zone and
 * pick each plant's day bucket with a CASE on its zone, so one query serves every zone of the fleet.
 */

const HOUR_MS = 3_600_000;

const num = (v: number | string | bigint | null | undefined) =>
  v === null || v === undefined ? null : Number(v);

/** Today's start (epoch ms) in each time zone of the plants in scope. */
export type TodayStarts = ReadonlyMap<string, number>;

/** The ids of the plants in scope; null when the scope reaches every plant (no filter needed). */
function plantsIn(db: Db, scope: Scope) {
  return scope.all ? null : reachable.plants(db, scope);
}

/** The start of the joined plant's local today: CASE plants.time_zone WHEN … THEN … END (null for another zone). */
function todayStartOfPlant(starts: TodayStarts) {
  const whens = [...starts].map(([zone, startMs]) => sql`when ${zone} then cast(${startMs} as bigint)`);
  return sql<number>`case ${sql.ref('plants.time_zone')} ${sql.join(whens, sql` `)} end`;
}

export interface InverterFigures {
  /** Rated AC power of the active inverters; null when none is rated. */
  ratedAcKw: number | null;
  /** Sum of the newest AC power of those that reported one; null when none did. */
  acPowerKw: number | null;
  /** Sum of their lifetime-counter deltas in today's day bucket; null when none has one. */
  energyTodayKwh: number | null;
}

/**
 * Per plant, its active inverters in one pass: rated power, AC power now and energy today. Each role is
 * read by its key (the first of SIGNAL_ROLES; a device has one signal per key), so each inverter is one
 * row and the sums count it once.
 */
export async function readInverters(
  db: Db,
  scope: Scope,
  starts: TodayStarts,
): Promise<Map<number, InverterFigures>> {
  const rows = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .leftJoin('signals as ac', (join) =>
      join
        .onRef('ac.device_id', '=', 'devices.id')
        .on('ac.is_active', '=', 1)
        .on('ac.key', '=', SIGNAL_ROLES.inverterAcPower.keys[0]),
    )
    .$call((q) => leftJoinTelemetry(q, 'latest', 'latest', { signal: 'ac.id' }))
    .leftJoin('signals as counter', (join) =>
      join
        .onRef('counter.device_id', '=', 'devices.id')
        .on('counter.is_active', '=', 1)
        .on('counter.key', '=', SIGNAL_ROLES.inverterEnergyTotal.keys[0]),
    )
    .$call((q) =>
      leftJoinTelemetry(q, '1d', 'today', { signal: 'counter.id', time: { at: todayStartOfPlant(starts) } }),
    )
    .select((eb) => [
      'devices.plant_id',
      eb.fn.sum<number | string | null>('devices.rated_power_kw').as('rated'),
      eb.fn.sum<number | string | null>('latest.value').as('power'),
      eb.fn.count<number | string>('latest.value').as('reporting'),
      // In kWh whatever each counter counts in (energy-units.ts), as the plant-day engine reads it.
      eb.fn
        .sum<number | string | null>(eb(eb.ref('today.delta'), '*', kwhPerUnitSql(sql.ref('counter.unit'))))
        .as('kwh'),
    ])
    .$if(!scope.all, (q) => q.where('devices.plant_id', 'in', plantsIn(db, scope)!))
    .where('devices.type', '=', 'inverter')
    .where('devices.is_active', '=', 1)
    .groupBy('devices.plant_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.plant_id,
      {
        ratedAcKw: num(r.rated),
        acPowerKw: Number(r.reporting) > 0 ? num(r.power) : null,
        energyTodayKwh: num(r.kwh),
      },
    ]),
  );
}

/**
 * Per plant: the export counter's delta in today's day bucket of its first meter that
 * has one (lowest device id, then signal id, as the plant-day engine picks it); null when that counter has
 * no bucket yet. Plants without an export counter are absent.
 */
export async function readMeterExport(
  db: Db,
  scope: Scope,
  starts: TodayStarts,
): Promise<Map<number, number | null>> {
  const rows = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .innerJoin('signals', (join) =>
      join
        .onRef('signals.device_id', '=', 'devices.id')
        .on('signals.is_active', '=', 1)
        .on('signals.key', 'in', SIGNAL_ROLES.meterExportEnergy.keys),
    )
    .$call((q) =>
      leftJoinTelemetry(q, '1d', 'today', { signal: 'signals.id', time: { at: todayStartOfPlant(starts) } }),
    )
    .select((eb) => [
      'devices.plant_id',
      eb(eb.ref('today.delta'), '*', kwhPerUnitSql(sql.ref('signals.unit'))).as('delta'),
    ])
    .$if(!scope.all, (q) => q.where('devices.plant_id', 'in', plantsIn(db, scope)!))
    .where('devices.type', '=', 'meter')
    .where('devices.is_active', '=', 1)
    .orderBy('devices.id')
    .orderBy('signals.id')
    .execute();
  const out = new Map<number, number | null>();
  for (const r of rows) if (!out.has(r.plant_id)) out.set(r.plant_id, num(r.delta));
  return out;
}

export interface IrradianceSignal {
  plantId: number;
  signalId: number;
  role: 'poa' | 'ghi';
  /**
   * Σ hourly mean × the elapsed part of the hour, W·h/m², over the hours of the plant's today so far: the
   * day's in-plane irradiation so far when the signal is a POA sensor (a GHI signal is transposed hour by
   * hour instead, from its buckets).
   */
  irradiationWhM2: number;
}

/**
 * The POA and GHI signals of the active weather stations of the plants in scope, in the order the
 * plant-day engine picks its first (device id, then signal id), each with today's irradiation so far.
 */
export async function readIrradiance(
  db: Db,
  scope: Scope,
  starts: TodayStarts,
  nowMs: number,
): Promise<IrradianceSignal[]> {
  const poaKeys: readonly string[] = SIGNAL_ROLES.poa.keys;
  const h = (column: 'sum' | 'count' | 'bucket') => sql.ref(`hours.${column}`);
  // An hour counts whole once over, the current one for the part of it that has passed.
  const irradiation = sql<
    number | string | null
  >`sum(case when ${h('count')} > 0 then ${h('sum')} / ${h('count')} * (case when ${h('bucket')} + ${HOUR_MS} > ${nowMs} then ${nowMs} - ${h('bucket')} else ${HOUR_MS} end) else 0 end)`;
  const rows = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .innerJoin('signals', (join) =>
      join
        .onRef('signals.device_id', '=', 'devices.id')
        .on('signals.is_active', '=', 1)
        .on('signals.key', 'in', [...poaKeys, ...SIGNAL_ROLES.ghi.keys]),
    )
    .$call((q) =>
      leftJoinTelemetry(q, '1h', 'hours', {
        signal: 'signals.id',
        time: { from: todayStartOfPlant(starts), through: nowMs },
      }),
    )
    .select(['devices.plant_id', 'devices.id as device_id', 'signals.id as signal_id', 'signals.key'])
    .select(irradiation.as('irradiation'))
    .$if(!scope.all, (q) => q.where('devices.plant_id', 'in', plantsIn(db, scope)!))
    .where('devices.type', '=', 'weather_station')
    .where('devices.is_active', '=', 1)
    .groupBy(['devices.plant_id', 'devices.id', 'signals.id', 'signals.key'])
    .orderBy('devices.id')
    .orderBy('signals.id')
    .execute();
  return rows.map((r) => ({
    plantId: r.plant_id,
    signalId: r.signal_id,
    role: poaKeys.includes(r.key) ? 'poa' : 'ghi',
    irradiationWhM2: (num(r.irradiation) ?? 0) / HOUR_MS,
  }));
}

/**
 * Per plant: the newest sample of any of its active devices, and whether one of them is online (data
 * within its lost-after time, engine/status.ts staleAfterMs, computed here in SQL). From device_last_data,
 * one row per device. Plants without active devices are absent.
 */
export async function readPlantCommunication(
  db: Db,
  scope: Scope,
  nowMs: number,
): Promise<Map<number, { lastDataMs: number | null; online: boolean }>> {
  const staleAfter = sql<number>`case when ${sql.ref('devices.poll_interval_s')} * ${COMM_LOST_AFTER_POLLS * 1000} > ${COMM_LOST_MIN_MS} then ${sql.ref('devices.poll_interval_s')} * ${COMM_LOST_AFTER_POLLS * 1000} else ${COMM_LOST_MIN_MS} end`;
  const rows = await db
    .selectFrom('devices')
    .leftJoin('device_last_data', 'device_last_data.device_id', 'devices.id')
    .select((eb) => [
      'devices.plant_id',
      eb.fn.max('device_last_data.ts').as('last_ts'),
      eb.fn.max(sql<number>`${sql.ref('device_last_data.ts')} + ${staleAfter}`).as('online_until'),
    ])
    .$if(!scope.all, (q) => q.where('devices.plant_id', 'in', plantsIn(db, scope)!))
    .where('devices.is_active', '=', 1)
    .groupBy('devices.plant_id')
    .execute();
  return new Map(
    rows.map((r) => {
      const until = num(r.online_until);
      return [r.plant_id, { lastDataMs: num(r.last_ts), online: until !== null && until >= nowMs }];
    }),
  );
}

export type { ActiveAlarmCount };

/**
 * Active alarms of the plants in scope and their devices, by priority and source: the alarms module's one
 * definition (countActiveAlarms), so the plants list and map count what the badge and /alarms count.
 */
export function readActiveAlarmCounts(db: Db, scope: Scope): Promise<ActiveAlarmCount[]> {
  return countActiveAlarms(db, scope);
}
