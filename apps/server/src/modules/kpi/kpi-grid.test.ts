/**
 * Grid outage and curtailment over HTTP (signal-map gridAvailable, inverterPowerLimitPct): posted readings
 * of a meter's grid_available and an inverter's active_power_limit_pct move the shortfall of their
 * intervals into grid_curtailment_kwh, with no downtime and no loss of availability; and a day's answer
 * carries each device's data completeness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantKpisAnswer } from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const MIN = 60_000;
const DAY = 86_400_000;
/** Istanbul keeps UTC+3 all year. */
const istanbulDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
const utcOf = (date: string, hh: number, mm: number) =>
  Date.parse(`${date}T00:00:00Z`) - 3 * 3_600_000 + (hh * 60 + mm) * MIN;

// P0 120 kWp, two 50 kW inverters, γ −0.0037 /K, 14 % system losses (the defaults).
const P0 = 120;
const POA = 800;
const T_MOD = 45;
const STEP_KWH = 3.5;
const INTERVAL_H = 5 / 60;
/** 24 five-minute intervals 10:05…12:00 local. */
const INTERVALS = 24;
/** Intervals 1–4: the grid is gone (grid_available 0); neither inverter produces. */
const OUTAGE = 4;
/** Intervals 21–24: INV-02 is limited to 50 % and delivers half a step. */
const CURTAILED_FROM = 21;

// Worked out by hand, independently of the engine.
const expectedKw = P0 * (POA / 1000) * (1 + -0.0037 * (T_MOD - 25)) * (1 - 0.14);
const expectedKwh = INTERVALS * expectedKw * INTERVAL_H;
const shareKwh = 0.5 * expectedKw * INTERVAL_H;
const curtailedIntervals = INTERVALS - CURTAILED_FROM + 1;
const inv1Kwh = (INTERVALS - OUTAGE) * STEP_KWH;
const inv2Kwh = (CURTAILED_FROM - 1 - OUTAGE) * STEP_KWH + curtailedIntervals * (STEP_KWH / 2);
const energyKwh = inv1Kwh + inv2Kwh;
const outageKwh = OUTAGE * 2 * shareKwh;
const curtailmentKwh = curtailedIntervals * (shareKwh - STEP_KWH / 2);

describe(`kpi grid outage and curtailment (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let key: string;
  const sig: Record<string, number> = {};
  const devices: Record<string, number> = {};
  const now = Date.now();
  /** With grid signals. */
  const d1 = istanbulDate(now - 3 * DAY);
  /** The same production without them: the control. */
  const d2 = istanbulDate(now - 2 * DAY);

  const get = async <T>(url: string, query?: Record<string, string>) => {
    const res = await t.http.get(url, { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const signal = async (deviceId: number, k: string, counter = false) =>
    (
      await save(t, admin.token, '/api/signals/0', {
        device_id: deviceId,
        key: k,
        name: k,
        is_counter: counter,
      })
    ).id;
  const device = async (name: string, type: string) =>
    (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        name,
        type,
        protocol: 'http',
        poll_interval_s: 300,
        ...(type === 'inverter' ? { rated_power_kw: 50 } : {}),
      })
    ).id;

  /** One day's points; the grid and limit readings only when `withGrid`. */
  function dayPoints(date: string, base1Kwh: number, base2Kwh: number, withGrid: boolean) {
    const points: { signal_id: number; ts: number; value: number }[] = [];
    let e1 = base1Kwh;
    let e2 = base2Kwh;
    for (let i = 0; i <= INTERVALS; i++) {
      const ts = utcOf(date, 10, 5 * i);
      if (i > OUTAGE) {
        e1 += STEP_KWH;
        e2 += i >= CURTAILED_FROM ? STEP_KWH / 2 : STEP_KWH;
      }
      points.push({ signal_id: sig.inv1Total!, ts, value: e1 });
      points.push({ signal_id: sig.inv2Total!, ts, value: e2 });
      if (i === 0) continue;
      // In the bucket of the counter reading that closes the step, as the store credits it.
      points.push({ signal_id: sig.poa!, ts: ts + MIN, value: POA });
      points.push({ signal_id: sig.tmod!, ts: ts + MIN, value: T_MOD });
      if (withGrid) {
        points.push({ signal_id: sig.grid!, ts: ts + MIN, value: i <= OUTAGE ? 0 : 1 });
        points.push({ signal_id: sig.inv2Limit!, ts: ts + MIN, value: i >= CURTAILED_FROM ? 50 : 100 });
      }
    }
    return points;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Grid');
    await save(t, admin.token, `/api/plants/${tree.plantId}`, {
      field_id: tree.fieldId,
      name: 'Grid Plant',
      time_zone: 'Europe/Istanbul',
      dc_capacity_kwp: P0,
      ac_capacity_kw: 100,
      latitude: 37.7,
      longitude: 33.5,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    devices.inv1 = tree.deviceId;
    await save(t, admin.token, `/api/devices/${tree.deviceId}`, {
      plant_id: tree.plantId,
      name: 'INV-01',
      type: 'inverter',
      protocol: 'http',
      rated_power_kw: 50,
      poll_interval_s: 300,
    });
    devices.inv2 = await device('INV-02', 'inverter');
    devices.ws = await device('WS-1', 'weather_station');
    devices.meter = await device('Meter-1', 'meter');
    sig.inv1Total = await signal(devices.inv1, 'total_energy', true);
    sig.inv2Total = await signal(devices.inv2, 'total_energy', true);
    sig.inv2Limit = await signal(devices.inv2, 'active_power_limit_pct');
    sig.poa = await signal(devices.ws, 'irradiance');
    sig.tmod = await signal(devices.ws, 'module_temperature');
    sig.grid = await signal(devices.meter, 'grid_available');
    const res = await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    key = res.json<{ key: string }>().key;
    const post = await t.http.post(
      '/api/telemetry',
      {
        points: [...dayPoints(d1, 1000, 1000, true), ...dayPoints(d2, 1000 + inv1Kwh, 1000 + inv2Kwh, false)],
      },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(post.statusCode, post.body).toBe(200);
  });
  afterAll(() => t.close());

  it('puts a grid outage and a power limit into grid curtailment, not downtime, and keeps availability', async () => {
    const k = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, { period: 'day', date: d1 });
    expect(k.energy_kwh).toBeCloseTo(energyKwh, 6);
    expect(k.expected_energy_kwh).toBeCloseTo(expectedKwh, 6);
    expect(k.losses.grid_curtailment_kwh).toBeCloseTo(outageKwh + curtailmentKwh, 6);
    expect(k.losses.grid_curtailment_kwh).toBeGreaterThan(0);
    expect(k.losses.downtime_kwh).toBeCloseTo(0, 9);
    expect(k.losses.communication_gap_kwh).toBeCloseTo(0, 9);
    expect(k.losses.clipping_kwh).toBeCloseTo(0, 9);
    expect(k.availability.time_based).toBeCloseTo(1, 12);
    expect(k.availability.energy_based).toBeCloseTo(1, 12);
    const { total_kwh, ...parts } = k.losses;
    expect(total_kwh).toBeCloseTo(expectedKwh - energyKwh, 6);
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBeCloseTo(expectedKwh - energyKwh, 6);
  });

  it('without the grid signals the same day is downtime and lower availability (the control)', async () => {
    const k = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, { period: 'day', date: d2 });
    expect(k.energy_kwh).toBeCloseTo(energyKwh, 6);
    expect(k.losses.grid_curtailment_kwh).toBeCloseTo(0, 9);
    expect(k.losses.downtime_kwh).toBeCloseTo(outageKwh, 6);
    expect(k.availability.time_based).toBeCloseTo((2 * INTERVALS - 2 * OUTAGE) / (2 * INTERVALS), 12);
    const { total_kwh, ...parts } = k.losses;
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBeCloseTo(total_kwh, 6);
  });

  it('sums the grid loss into the month', async () => {
    const month = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, {
      period: 'month',
      date: d1,
    });
    expect(month.rows.find((r) => r.key === d1)!.losses.grid_curtailment_kwh).toBeCloseTo(
      outageKwh + curtailmentKwh,
      6,
    );
    // Per-device completeness is a day's figure only.
    expect(month.devices).toBeUndefined();
  });

  it("answers a day's data completeness per device, adding up to the plant's", async () => {
    const k = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, { period: 'day', date: d1 });
    const byId = new Map((k.devices ?? []).map((d) => [d.device_id, d]));
    // Polled every 5 min: 288 samples expected in the day; the counters sent 25, the others 24.
    expect(byId.get(devices.inv1!)).toMatchObject({
      name: 'INV-01',
      type: 'inverter',
      expected_samples: 288,
      received_samples: 25,
    });
    expect(byId.get(devices.inv1!)!.data_completeness).toBeCloseTo(25 / 288, 12);
    expect(byId.get(devices.inv2!)!.received_samples).toBe(25);
    expect(byId.get(devices.ws!)!.received_samples).toBe(24);
    expect(byId.get(devices.meter!)!.received_samples).toBe(24);
    expect(byId.size).toBe(4);
    expect(k.data_completeness).toBeCloseTo((25 + 25 + 24 + 24) / (4 * 288), 12);

    // Today is computed live: every device is listed, expected samples counted up to now.
    const today = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, { period: 'day' });
    expect(today.includes_today).toBe(true);
    expect(today.devices?.map((d) => d.device_id).sort((a, b) => a - b)).toEqual(
      [devices.inv1!, devices.inv2!, devices.ws!, devices.meter!].sort((a, b) => a - b),
    );
    for (const d of today.devices ?? []) expect(d.expected_samples).toBeLessThanOrEqual(288);
  });
});
