import { expect } from 'vitest';
import { makeTree, save, type TestUser, type Tree } from './org-fixtures';
import type { TestApp } from './test-app';

/**
 * The plant the KPI and report tests work their figures out by hand on: 120 kWp DC, 100 kW AC, two 50 kW
 * inverters with energy counters and a weather station with irradiance and module temperature, all polled
 * every 5 minutes, in Istanbul (UTC+3 all year, so a local date's instants are plain arithmetic), with the
 * PVWatts defaults the server fills in (γ −0.0037 /K, 14 % losses). Built over HTTP as an administrator
 * would, then fed through the plant's ingest key.
 */
export const PLANT_DAY_ZONE = 'Europe/Istanbul';
export const PLANT_DAY_KWP = 120;
export const PLANT_DAY_AC_KW = 100;
const MIN = 60_000;
const OFFSET_MS = 3 * 3_600_000;

/** The Istanbul date (YYYY-MM-DD) of an instant. */
export const istanbulDate = (ms: number) => new Date(ms + OFFSET_MS).toISOString().slice(0, 10);
/** The instant of an Istanbul date's local time, given as minutes after midnight. */
export const istanbulInstant = (date: string, minuteOfDay: number) =>
  Date.parse(`${date}T00:00:00Z`) - OFFSET_MS + minuteOfDay * MIN;

/**
 * The morning the hand-worked figures come from: counters read every 5 minutes from 10:00 (the baseline)
 * to 12:00, so 24 intervals carry energy; each weather sample lands one minute after the counter reading
 * that closes its interval, in that reading's 5-minute bucket (the store credits a step to that bucket).
 */
export const MORNING = { intervals: 24, startMinute: 10 * 60, poaWm2: 800, moduleTemperatureC: 45 } as const;

export interface TelemetryPoint {
  signal_id: number;
  ts: number;
  value: number;
}

/** One morning of a plant: each inverter's energy per interval, and how many intervals INV-2 produces. */
export interface MorningDay {
  date: string;
  /** kWh per 5-minute interval of INV-1 and INV-2. */
  stepKwh: readonly [number, number];
  /** Intervals INV-2 produces before it stops (down for the rest of the morning); default all of them. */
  inv2Steps?: number;
}

export interface PlantWithDayOptions {
  /** Names the tree: company `{name} Co`, field `{name} Field`. */
  name: string;
  /** The plant's name; default `{name} Plant`. */
  plantName?: string;
  /** The inverters' names; default INV-01 and INV-02. */
  inverterNames?: readonly [string, string];
  /**
   * Mornings to ingest (see MORNING), oldest first; each day's counters go on from the day before's last
   * reading (the first starts at 1,000 kWh), so each day holds exactly its own steps. Default none: the
   * test ingests a profile of its own with `ingest`.
   */
  days?: readonly MorningDay[];
}

export interface PlantWithDay {
  tree: Tree;
  /** INV-1 (the tree's own device, made an HTTP inverter) and INV-2. */
  inverters: [number, number];
  weatherStation: number;
  /** The inverters' total_energy counters, and the station's irradiance and module temperature. */
  signals: { totals: [number, number]; poa: number; moduleTemperature: number };
  /** Adds a signal to a device, as the administrator; answers its id. */
  addSignal(deviceId: number, key: string, counter?: boolean): Promise<number>;
  /** Posts points with the plant's ingest key and expects them taken. */
  ingest(points: readonly TelemetryPoint[]): Promise<void>;
}

/**
 * A company, field and plant (makeTree) made into the hand-worked plant above, with `days` of mornings
 * ingested. The tree's AC power signal stays on INV-1, without data.
 */
export async function makePlantWithDay(
  t: TestApp,
  admin: TestUser,
  options: PlantWithDayOptions,
): Promise<PlantWithDay> {
  const tree = await makeTree(t, admin.token, options.name);
  await save(t, admin.token, `/api/plants/${tree.plantId}`, {
    field_id: tree.fieldId,
    name: options.plantName ?? `${options.name} Plant`,
    time_zone: PLANT_DAY_ZONE,
    dc_capacity_kwp: PLANT_DAY_KWP,
    ac_capacity_kw: PLANT_DAY_AC_KW,
    latitude: 37.7,
    longitude: 33.5,
    tilt_deg: 30,
    azimuth_deg: 180,
  });
  const device = async (id: number, body: Record<string, unknown>) =>
    (
      await save(t, admin.token, `/api/devices/${id}`, {
        plant_id: tree.plantId,
        protocol: 'http',
        poll_interval_s: 300,
        ...body,
      })
    ).id;
  const [inv1Name, inv2Name] = options.inverterNames ?? ['INV-01', 'INV-02'];
  const inv1 = await device(tree.deviceId, { name: inv1Name, type: 'inverter', rated_power_kw: 50 });
  const inv2 = await device(0, { name: inv2Name, type: 'inverter', rated_power_kw: 50 });
  const weatherStation = await device(0, { name: 'WS-1', type: 'weather_station' });
  const addSignal = async (deviceId: number, key: string, counter = false) =>
    (
      await save(t, admin.token, '/api/signals/0', {
        device_id: deviceId,
        key,
        name: key,
        is_counter: counter,
      })
    ).id;
  const signals = {
    totals: [await addSignal(inv1, 'total_energy', true), await addSignal(inv2, 'total_energy', true)] as [
      number,
      number,
    ],
    poa: await addSignal(weatherStation, 'irradiance'),
    moduleTemperature: await addSignal(weatherStation, 'module_temperature'),
  };
  const keyAnswer = await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token });
  expect(keyAnswer.statusCode, keyAnswer.body).toBe(200);
  const key = keyAnswer.json<{ key: string }>().key;
  const ingest = async (points: readonly TelemetryPoint[]) => {
    const res = await t.http.post(
      '/api/telemetry',
      { points },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const plant = {
    tree,
    inverters: [inv1, inv2] as [number, number],
    weatherStation,
    signals,
    addSignal,
    ingest,
  };
  if (options.days?.length) await ingest(morningPoints(plant, options.days));
  return plant;
}

/** The points of `days` of mornings (see MORNING), counters going on from day to day from 1,000 kWh. */
export function morningPoints(
  plant: Pick<PlantWithDay, 'signals'>,
  days: readonly MorningDay[],
): TelemetryPoint[] {
  const { totals, poa, moduleTemperature } = plant.signals;
  const points: TelemetryPoint[] = [];
  const counters = [1000, 1000];
  for (const { date, stepKwh, inv2Steps = MORNING.intervals } of days) {
    const base = [...counters];
    const produced = [MORNING.intervals, Math.min(inv2Steps, MORNING.intervals)];
    for (let i = 0; i <= MORNING.intervals; i++) {
      const ts = istanbulInstant(date, MORNING.startMinute + 5 * i);
      for (const n of [0, 1])
        points.push({ signal_id: totals[n]!, ts, value: base[n]! + Math.min(i, produced[n]!) * stepKwh[n]! });
      if (i > 0) {
        points.push({ signal_id: poa, ts: ts + MIN, value: MORNING.poaWm2 });
        points.push({ signal_id: moduleTemperature, ts: ts + MIN, value: MORNING.moduleTemperatureC });
      }
    }
    for (const n of [0, 1]) counters[n] = base[n]! + produced[n]! * stepKwh[n]!;
  }
  return points;
}
