import { expect } from 'vitest';
import { makeTree, save, type TestUser, type Tree } from '../../test/org-fixtures';
import type { TestApp } from '../../test/test-app';

const MIN = 60_000;
const DAY = 86_400_000;

/** Both test plants keep a fixed offset all year: Istanbul UTC+3; Skopje is UTC+1/+2, so its days use Skopje dates. */
export const ISTANBUL = 'Europe/Istanbul';

/**
 * A plant with two 50 kW inverters and a station, 120 kWp, with a Turkish or Cyrillic name, and
 * `days` finished local days of 24 five-minute intervals at POA 800 W/m², 3.5 kWh per inverter step.
 */
export interface ReportPlantFixture {
  tree: Tree;
  name: string;
  inverters: number[];
  dates: string[];
  /** Hand-worked energy of one day, kWh. */
  dayEnergyKwh: number;
  dayIrradiationKwhM2: number;
}

export const P0_KWP = 120;
const POA = 800;
const STEP_KWH = 3.5;
const INTERVALS = 24;

const istanbulDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
const utcOf = (date: string, hh: number, mm: number) =>
  Date.parse(`${date}T00:00:00Z`) - 3 * 3_600_000 + (hh * 60 + mm) * MIN;

/** `count` finished Istanbul dates ending three days ago, oldest first. */
export function pastDates(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => istanbulDate(now - (count + 2 - i) * DAY));
}

export async function makeReportPlant(
  t: TestApp,
  admin: TestUser,
  name: string,
  dates: readonly string[],
  inv2StepKwh = STEP_KWH,
): Promise<ReportPlantFixture> {
  const tree = await makeTree(t, admin.token, name);
  await save(t, admin.token, `/api/plants/${tree.plantId}`, {
    field_id: tree.fieldId,
    name,
    time_zone: ISTANBUL,
    dc_capacity_kwp: P0_KWP,
    ac_capacity_kw: 100,
    latitude: 37.7,
    longitude: 33.5,
    tilt_deg: 30,
    azimuth_deg: 180,
  });
  const inverter = (n: number, id = 0) =>
    save(t, admin.token, `/api/devices/${id}`, {
      plant_id: tree.plantId,
      name: `INV-0${n}`,
      type: 'inverter',
      protocol: 'http',
      rated_power_kw: 50,
      poll_interval_s: 300,
    });
  const inv1 = (await inverter(1, tree.deviceId)).id;
  const inv2 = (await inverter(2)).id;
  const ws = (
    await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'WS-1',
      type: 'weather_station',
      protocol: 'http',
      poll_interval_s: 300,
    })
  ).id;
  const signal = async (deviceId: number, key: string, counter = false) =>
    (
      await save(t, admin.token, '/api/signals/0', {
        device_id: deviceId,
        key,
        name: key,
        is_counter: counter,
      })
    ).id;
  const total1 = await signal(inv1, 'total_energy', true);
  const total2 = await signal(inv2, 'total_energy', true);
  const poa = await signal(ws, 'irradiance');
  const tmod = await signal(ws, 'module_temperature');
  const res = await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  const key = res.json<{ key: string }>().key;
  const points: { signal_id: number; ts: number; value: number }[] = [];
  dates.forEach((date, d) => {
    for (let i = 0; i <= INTERVALS; i++) {
      const ts = utcOf(date, 10, 5 * i);
      points.push({ signal_id: total1, ts, value: 1000 + d * INTERVALS * STEP_KWH + i * STEP_KWH });
      points.push({ signal_id: total2, ts, value: 1000 + d * INTERVALS * inv2StepKwh + i * inv2StepKwh });
      if (i > 0) {
        points.push({ signal_id: poa, ts: ts + MIN, value: POA });
        points.push({ signal_id: tmod, ts: ts + MIN, value: 45 });
      }
    }
  });
  const ingest = await t.http.post(
    '/api/telemetry',
    { points },
    { headers: { 'x-api-key': key }, xsrf: false },
  );
  expect(ingest.statusCode, ingest.body).toBe(200);
  return {
    tree,
    name,
    inverters: [inv1, inv2],
    dates: [...dates],
    dayEnergyKwh: INTERVALS * (STEP_KWH + inv2StepKwh),
    dayIrradiationKwhM2: (INTERVALS * POA * (5 / 60)) / 1000,
  };
}
