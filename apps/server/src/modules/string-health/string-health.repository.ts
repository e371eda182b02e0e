import type { Db } from '../../db/database';
import { reachable, type Scope } from '../../lib/scope';

/** An inverter as the string-health reads need it. */
export interface StringInverter {
  id: number;
  plantId: number;
  ratedKw: number | null;
  timeZone: string;
}

/** The inverter `id` within the scope, with its plant's zone (another device type is not found). */
export async function findInverter(db: Db, scope: Scope, id: number): Promise<StringInverter | undefined> {
  let q = db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(['devices.id', 'devices.plant_id', 'devices.rated_power_kw', 'plants.time_zone'])
    .where('devices.id', '=', id)
    .where('devices.type', '=', 'inverter');
  if (!scope.all) q = q.where('devices.id', 'in', reachable.devices(db, scope));
  const row = await q.executeTakeFirst();
  return (
    row && {
      id: row.id,
      plantId: row.plant_id,
      ratedKw: row.rated_power_kw === null ? null : Number(row.rated_power_kw),
      timeZone: row.time_zone,
    }
  );
}

/** A signal the string-health engine reads. */
export interface StringSignalRow {
  signalId: number;
  deviceId: number;
  plantId: number;
  key: string;
}

/** Keys of a string's current and voltage (`string{n}_dc_current`, `string{n}_dc_voltage`). */
const STRING_KEY_PATTERN = 'string%_dc_%';
/** The inverter's own DC voltage and AC power: the voltage of a string without one, and the light without a sensor. */
const INVERTER_KEYS = ['dc_voltage', 'ac_power'];
/** Plane-of-array irradiance keys of a weather station (the KPI engine's `poa` keys). */
export const POA_KEYS = ['irradiance', 'poa_irradiance', 'poa'];

/**
 * The active signals of active inverters that string health reads: string currents and voltages, DC
 * voltage and AC power; of `deviceIds` only, or of every inverter when omitted (the periodic judgement);
 * of one plant's inverters with `plantId` (an inverter's plant-wide peers).
 */
export async function inverterSignals(
  db: Db,
  deviceIds?: readonly number[],
  plantId?: number,
): Promise<StringSignalRow[]> {
  if (deviceIds?.length === 0) return [];
  let q = db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'signals.device_id', 'devices.plant_id', 'signals.key'])
    .where('devices.type', '=', 'inverter')
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .where((eb) =>
      eb.or([eb('signals.key', 'like', STRING_KEY_PATTERN), eb('signals.key', 'in', INVERTER_KEYS)]),
    );
  if (deviceIds) q = q.where('devices.id', 'in', deviceIds);
  if (plantId !== undefined) q = q.where('devices.plant_id', '=', plantId);
  const rows = await q.orderBy('signals.id').execute();
  return rows.map((r) => ({ signalId: r.id, deviceId: r.device_id, plantId: r.plant_id, key: r.key }));
}

/** The plants' plane-of-array irradiance signals (active weather stations), by plant. */
export async function poaSignals(db: Db, plantIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (plantIds.length === 0) return out;
  const rows = await db
    .selectFrom('signals')
    .innerJoin('devices', 'devices.id', 'signals.device_id')
    .select(['signals.id', 'devices.plant_id'])
    .where('devices.type', '=', 'weather_station')
    .where('devices.is_active', '=', 1)
    .where('signals.is_active', '=', 1)
    .where('signals.key', 'in', POA_KEYS)
    .where('devices.plant_id', 'in', plantIds)
    .orderBy('signals.id')
    .execute();
  for (const r of rows) {
    let list = out.get(r.plant_id);
    if (!list) out.set(r.plant_id, (list = []));
    list.push(r.id);
  }
  return out;
}

/** The inverters' rating (kW), by id. */
export async function ratings(db: Db, deviceIds: readonly number[]): Promise<Map<number, number | null>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'rated_power_kw'])
    .where('id', 'in', deviceIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.rated_power_kw === null ? null : Number(r.rated_power_kw)]));
}
