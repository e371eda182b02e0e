/**
 * A generated fleet for bench:fleet: `plants` plants of `invertersPerPlant` inverters (plus a meter and a
 * weather station each), spread over companies of 100 plants and fields of 20, with coordinates across
 * Türkiye and North Macedonia, the KPI signals, their latest values, today's daily and hourly rollups,
 * active alarms on one plant in ten (and a year of cleared ones), and a year of kpi_daily rows. Written
 * with multi-row inserts in one transaction and ids assigned here, so 2,000 plants build in minutes.
 *
 * What it leaves out on purpose: a year of raw points and rollups per signal (the overview reads only
 * today's buckets by primary key, so older rows change only the B-tree's depth, by one level at most).
 */
import type { Insertable } from 'kysely';
import type { Db } from '../src/db/database';
import type { Database } from '../src/db/schema';
import { dayStart, localDate } from '../src/modules/kpi/engine/telemetry-imports';
import { findKpiPlants, loadPlantSignals } from '../src/modules/kpi/kpi.repository';
import { paramsKeyOf, plantConfig } from '../src/modules/kpi/plant-day.service';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const INVERTER_KW = 100;
const TIME_ZONES = ['Europe/Istanbul', 'Europe/Skopje'] as const;

const INVERTER_SIGNALS = [
  { key: 'ac_power', unit: 'kW', counter: 0 },
  { key: 'total_energy', unit: 'kWh', counter: 1 },
  { key: 'daily_energy', unit: 'kWh', counter: 0 },
  { key: 'status_code', unit: null, counter: 0 },
  { key: 'temperature', unit: '°C', counter: 0 },
] as const;
const METER_SIGNALS = [
  { key: 'active_power', unit: 'kW', counter: 0 },
  { key: 'export_energy', unit: 'kWh', counter: 1 },
  { key: 'grid_available', unit: null, counter: 0 },
] as const;
const STATION_SIGNALS = [
  { key: 'irradiance', unit: 'W/m²', counter: 0 },
  { key: 'module_temperature', unit: '°C', counter: 0 },
  { key: 'ambient_temperature', unit: '°C', counter: 0 },
] as const;

/** A small deterministic generator: the same fleet every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Table = keyof Database;

/** Multi-row inserts sized to stay under both dialects' bound-parameter limits. */
async function bulkInsert<T extends Table>(db: Db, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const perStatement = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += perStatement)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + perStatement))
      .execute();
}

async function nextId(db: Db, table: 'companies' | 'fields' | 'plants' | 'devices' | 'signals' | 'alarms') {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0) + 1;
}

export interface FleetCounts {
  plants: number;
  devices: number;
  signals: number;
  latest: number;
  rollups: number;
  activeAlarms: number;
  clearedAlarms: number;
  kpiDays: number;
}

/** Writes the fleet; answers what it wrote. `now` places today, the latest values and the year of days. */
export async function generateFleet(
  db: Db,
  plants: number,
  invertersPerPlant: number,
  now: number,
  kpiDays = 365,
): Promise<FleetCounts> {
  const rnd = random(plants * 7919 + invertersPerPlant);
  const stamps = { created_at: now, updated_at: now };
  let companyId = await nextId(db, 'companies');
  let fieldId = await nextId(db, 'fields');
  let plantId = await nextId(db, 'plants');
  let deviceId = await nextId(db, 'devices');
  let signalId = await nextId(db, 'signals');
  let alarmId = await nextId(db, 'alarms');

  const companies: Insertable<Database['companies']>[] = [];
  const fields: Insertable<Database['fields']>[] = [];
  const plantRows: Insertable<Database['plants']>[] = [];
  const devices: Insertable<Database['devices']>[] = [];
  const signals: Insertable<Database['signals']>[] = [];
  const latest: Insertable<Database['telemetry_latest']>[] = [];
  // What the telemetry store keeps beside telemetry_latest: each device's newest sample time.
  const lastData: Insertable<Database['device_last_data']>[] = [];
  const daily: Insertable<Database['telemetry_1d']>[] = [];
  const hourly: Insertable<Database['telemetry_1h']>[] = [];
  const alarms: Insertable<Database['alarms']>[] = [];
  let activeAlarms = 0;

  const rollup = (signal: number, bucket: number, value: number, delta: number | null) => ({
    signal_id: signal,
    bucket,
    min: value,
    max: value,
    sum: value * 12,
    count: 12,
    first: value,
    first_ts: bucket,
    last: value,
    last_ts: bucket,
    delta,
  });

  for (let p = 0; p < plants; p++) {
    if (p % 100 === 0) {
      companies.push({ id: companyId, name: `Fleet Company ${companyId}`, is_active: 1, ...stamps });
      companyId++;
    }
    if (p % 20 === 0) {
      fields.push({
        id: fieldId,
        company_id: companyId - 1,
        name: `Field ${fieldId}`,
        is_active: 1,
        ...stamps,
      });
      fieldId++;
    }
    const timeZone = TIME_ZONES[p % 2]!;
    const latitude = 36.5 + rnd() * 5.5;
    const longitude =
      (timeZone === 'Europe/Skopje' ? 20.5 : 27) + rnd() * (timeZone === 'Europe/Skopje' ? 2.5 : 16);
    const acKw = invertersPerPlant * INVERTER_KW;
    const id = plantId++;
    plantRows.push({
      id,
      field_id: fieldId - 1,
      name: `Fleet GES-${id}`,
      dc_capacity_kwp: acKw * 1.2,
      ac_capacity_kw: acKw,
      latitude,
      longitude,
      time_zone: timeZone,
      commissioning_date: '2022-05-01',
      subscriber_numbers: '[]',
      tilt_deg: 30,
      azimuth_deg: 180,
      is_active: 1,
      ...stamps,
    });
    const todayStart = dayStart(localDate(now, timeZone), timeZone);
    // One plant in fifty went quiet an hour ago (offline); the rest reported within the last minute.
    const lastTs = p % 50 === 49 ? now - HOUR_MS : now - Math.floor(rnd() * 60_000);
    const irradianceWm2 = 300 + rnd() * 500;

    const addDevice = (
      type: string,
      name: string,
      defs: readonly { key: string; unit: string | null; counter: number }[],
    ) => {
      const dev = deviceId++;
      devices.push({
        id: dev,
        plant_id: id,
        parent_device_id: null,
        name,
        type,
        rated_power_kw: type === 'inverter' ? INVERTER_KW : null,
        protocol: 'modbus_tcp',
        poll_interval_s: type === 'inverter' ? 30 : 60,
        is_active: 1,
        ...stamps,
      });
      if (defs.length) lastData.push({ device_id: dev, ts: lastTs });
      for (const def of defs) {
        const sig = signalId++;
        signals.push({
          id: sig,
          device_id: dev,
          key: def.key,
          name: def.key,
          unit: def.unit,
          data_type: 'float32',
          scale: 1,
          is_counter: def.counter,
          is_active: 1,
          ...stamps,
        });
        const value =
          def.key === 'ac_power'
            ? INVERTER_KW * (irradianceWm2 / 1000) * (0.9 + rnd() * 0.1)
            : def.key === 'irradiance'
              ? irradianceWm2
              : def.key === 'grid_available'
                ? 1
                : def.counter
                  ? 100_000 + rnd() * 400_000
                  : 20 + rnd() * 20;
        latest.push({ signal_id: sig, ts: lastTs, value });
        // Today's daily bucket of every signal (counters carry the day's energy so far).
        daily.push(rollup(sig, todayStart, value, def.counter ? 200 + rnd() * 200 : null));
        if (def.key === 'irradiance')
          for (let h = todayStart; h < now; h += HOUR_MS) hourly.push(rollup(sig, h, irradianceWm2, null));
      }
      return dev;
    };
    const inverterIds: number[] = [];
    for (let i = 1; i <= invertersPerPlant; i++)
      inverterIds.push(addDevice('inverter', `INV-${String(i).padStart(2, '0')}`, INVERTER_SIGNALS));
    addDevice('meter', 'Meter-1', METER_SIGNALS);
    addDevice('weather_station', 'WS-1', STATION_SIGNALS);

    // A year of cleared alarms (one a week), and active ones of every priority on one plant in ten.
    for (let w = 0; w < 52; w++) {
      const started = now - (w + 1) * 7 * DAY_MS;
      alarms.push(alarmRow(alarmId++, id, inverterIds[w % inverterIds.length]!, null, 1 + (w % 4), started));
    }
    if (p % 10 === 0)
      for (let a = 0; a < 1 + (p % 4); a++) {
        const dev = inverterIds[a]!;
        alarms.push(alarmRow(alarmId++, id, dev, `evt:${dev}:${a}`, 1 + a, now - (a + 1) * HOUR_MS));
        activeAlarms++;
      }
  }

  await db.transaction().execute(async (trx) => {
    await bulkInsert(trx, 'companies', companies);
    await bulkInsert(trx, 'fields', fields);
    await bulkInsert(trx, 'plants', plantRows);
    await bulkInsert(trx, 'devices', devices);
    await bulkInsert(trx, 'signals', signals);
    await bulkInsert(trx, 'telemetry_latest', latest);
    await bulkInsert(trx, 'device_last_data', lastData);
    await bulkInsert(trx, 'telemetry_1d', daily);
    await bulkInsert(trx, 'telemetry_1h', hourly);
    await bulkInsert(trx, 'alarms', alarms);
  });

  // The stored days carry the key of the parameters they were computed with, as the service computes it,
  // so that reading them never triggers a recomputation.
  const generated = new Set(plantRows.map((r) => r.id));
  const kpiPlants = (await findKpiPlants(db, { all: true })).filter((p) => generated.has(p.id));
  const signalsOf = await loadPlantSignals(
    db,
    kpiPlants.map((p) => p.id),
  );
  let kpiRows: Insertable<Database['kpi_daily']>[] = [];
  let kpiCount = 0;
  await db.transaction().execute(async (trx) => {
    for (const plant of kpiPlants) {
      // A generated database has no admin CO₂ factors: the built-in table's apply.
      const signals = signalsOf.get(plant.id)!;
      const paramsKey = paramsKeyOf(plant, plantConfig(plant, signals, {}), signals);
      const today = localDate(now, plant.timeZone);
      const p0 = plant.dcCapacityKwp ?? 0;
      for (let d = 1; d <= kpiDays; d++) {
        const date = localDate(Date.parse(`${today}T12:00:00Z`) - d * DAY_MS, plant.timeZone);
        const season = 0.55 + 0.45 * Math.cos(((Number(date.slice(5, 7)) - 6.5) / 6) * Math.PI);
        const irradiation = 7 * season * (0.6 + 0.4 * rnd());
        const pr = 0.78 + rnd() * 0.08;
        const energy = p0 * irradiation * pr;
        const expected = p0 * irradiation * 0.86;
        const downtime = rnd() < 0.05 ? expected * 0.05 : 0;
        const clipping = expected * 0.01;
        kpiRows.push({
          plant_id: plant.id,
          date,
          energy_kwh: energy,
          energy_source: 'meter',
          irradiation_kwh_m2: irradiation,
          irradiance_source: 'measured',
          expected_energy_kwh: expected,
          loss_downtime_kwh: downtime,
          loss_communication_gap_kwh: 0,
          loss_clipping_kwh: clipping,
          loss_grid_curtailment_kwh: 0,
          loss_underperformance_kwh: expected - energy - downtime - clipping,
          pr_energy_kwh: energy,
          pr_irradiation_kwh_m2: irradiation,
          pr_corrected_reference_kwh: p0 * irradiation,
          available_rated_kw_intervals: 100 * 140,
          assessed_rated_kw_intervals: 100 * 144,
          co2_avoided_kg: energy * 0.44,
          excluded_counter_jump_kwh: 0,
          excluded_replayed_day_kwh: 0,
          excluded_day_energy_impossible_kwh: 0,
          expected_samples: 60_000,
          received_samples: 59_500,
          params_key: paramsKey,
          computed_at: now,
        });
        if (kpiRows.length >= 20_000) {
          kpiCount += kpiRows.length;
          await bulkInsert(trx, 'kpi_daily', kpiRows);
          kpiRows = [];
        }
      }
    }
    kpiCount += kpiRows.length;
    await bulkInsert(trx, 'kpi_daily', kpiRows);
  });

  return {
    plants: plantRows.length,
    devices: devices.length,
    signals: signals.length,
    latest: latest.length,
    rollups: daily.length + hourly.length,
    activeAlarms,
    clearedAlarms: alarms.length - activeAlarms,
    kpiDays: kpiCount,
  };
}

function alarmRow(
  id: number,
  plantId: number,
  deviceId: number,
  activeKey: string | null,
  priorityId: number,
  startedAt: number,
): Insertable<Database['alarms']> {
  return {
    id,
    plant_id: plantId,
    device_id: deviceId,
    tag_id: null,
    source: 'device_status',
    rule_id: null,
    condition_key: `evt:${deviceId}:${priorityId}`,
    active_key: activeKey,
    priority_id: priorityId,
    message: 'alarms.msg.inverterFault',
    message_params: '{}',
    status_id: activeKey ? 1 : 3,
    started_at: startedAt,
    cleared_at: activeKey ? null : startedAt + HOUR_MS,
    approved_at: null,
    approved_by: null,
    rejected_at: null,
    rejected_by: null,
    fault_id: null,
  };
}
