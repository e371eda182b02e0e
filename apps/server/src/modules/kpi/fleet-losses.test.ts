import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetLossesAnswer, FleetLossItem, PlantKpisAnswer } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const MIN = 60_000;
const DAY = 86_400_000;
/** Istanbul keeps UTC+3 all year. */
const istanbulDate = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
const utcOf = (date: string, hh: number, mm: number) =>
  Date.parse(`${date}T00:00:00Z`) - 3 * 3_600_000 + (hh * 60 + mm) * MIN;

// Each plant: P0 120 kWp, two 50 kW inverters, the PVWatts defaults (γ −0.0037 /K, 14 % losses).
const P0 = 120;
const POA = 800;
const T_MOD = 45;
const INTERVALS = 24;
const expectedKw = P0 * (POA / 1000) * (1 - 0.0037 * (T_MOD - 25)) * (1 - 0.14);
const expectedKwh = (INTERVALS * expectedKw * 5) / 60;

/** The figures both answers carry for one plant and period. */
const figures = (k: PlantKpisAnswer | FleetLossItem) => ({
  energy_kwh: k.energy_kwh,
  energy_source: k.energy_source,
  expected_energy_kwh: k.expected_energy_kwh,
  losses: k.losses,
  availability: k.availability,
  pr: k.pr,
  irradiation_kwh_m2: k.irradiation_kwh_m2,
  data_completeness: k.data_completeness,
  from: k.from,
  to: k.to,
});

describe(`fleet losses (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let lossy: Tree;
  let strong: Tree;
  const date = istanbulDate(Date.now() - 3 * DAY);

  /** A plant with two inverters and a weather station, and one day of data: INV-2 stops after `inv2Steps`. */
  async function plantDay(tree: Tree, stepKwh: number, inv2Steps: number) {
    await save(t, admin.token, `/api/plants/${tree.plantId}`, {
      field_id: tree.fieldId,
      name: `Plant ${tree.plantId}`,
      time_zone: 'Europe/Istanbul',
      dc_capacity_kwp: P0,
      ac_capacity_kw: 100,
      latitude: 37.7,
      longitude: 33.5,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    const device = (body: Record<string, unknown>) =>
      save(t, admin.token, '/api/devices/0', { plant_id: tree.plantId, protocol: 'http', ...body });
    const signal = async (deviceId: number, key: string, counter = false) =>
      (
        await save(t, admin.token, '/api/signals/0', {
          device_id: deviceId,
          key,
          name: key,
          is_counter: counter,
        })
      ).id;
    const inv1 = (await device({ name: 'INV-A', type: 'inverter', rated_power_kw: 50, poll_interval_s: 300 }))
      .id;
    const inv2 = (await device({ name: 'INV-B', type: 'inverter', rated_power_kw: 50, poll_interval_s: 300 }))
      .id;
    const ws = (await device({ name: 'WS', type: 'weather_station', poll_interval_s: 300 })).id;
    const [total1, total2, poa, tmod] = [
      await signal(inv1, 'total_energy', true),
      await signal(inv2, 'total_energy', true),
      await signal(ws, 'irradiance'),
      await signal(ws, 'module_temperature'),
    ];
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let i = 0; i <= INTERVALS; i++) {
      const ts = utcOf(date, 10, 5 * i);
      points.push({ signal_id: total1, ts, value: 1000 + i * stepKwh });
      points.push({ signal_id: total2, ts, value: 1000 + Math.min(i, inv2Steps) * stepKwh });
      if (i > 0) {
        points.push({ signal_id: poa, ts: ts + MIN, value: POA });
        points.push({ signal_id: tmod, ts: ts + MIN, value: T_MOD });
      }
    }
    const keyRes = await t.http.post(`/api/plants/${tree.plantId}/ingest-key`, {}, { token: admin.token });
    const key = keyRes.json<{ key: string }>().key;
    const res = await t.http.post(
      '/api/telemetry',
      { points },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
  }

  const losses = async (token: string, query: Record<string, string>) => {
    const res = await t.http.get('/api/plants/losses', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FleetLossesAnswer>();
  };
  const kpis = async (plantId: number, period: string) => {
    const res = await t.http.get(`/api/plants/${plantId}/kpis`, {
      token: admin.token,
      query: { period, date },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantKpisAnswer>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    lossy = await makeTree(t, admin.token, 'Lossy');
    strong = await makeTree(t, admin.token, 'Strong');
    // Lossy: 3.5 kWh per inverter and step, INV-B down for the second half of the day.
    await plantDay(lossy, 3.5, INTERVALS / 2);
    // Strong: 4 kWh per inverter and step all day, more than the model expects.
    await plantDay(strong, 4, INTERVALS);
  });
  afterAll(() => t.close());

  it("answers each plant's day with the plant page's figures and its largest loss", async () => {
    const answer = await losses(admin.token, { period: 'day', date });
    expect(answer.period).toBe('day');
    const byId = new Map(answer.items.map((i) => [i.plant_id, i]));
    const a = byId.get(lossy.plantId)!;
    const b = byId.get(strong.plantId)!;
    expect(figures(a)).toEqual(figures(await kpis(lossy.plantId, 'day')));
    expect(figures(b)).toEqual(figures(await kpis(strong.plantId, 'day')));
    // Worked by hand: INV-B's 12 lost intervals at half the plant's expected power.
    expect(a.losses.downtime_kwh).toBeCloseTo((12 * 0.5 * expectedKw * 5) / 60, 6);
    expect(a.energy_kwh).toBeCloseTo(24 * 3.5 + 12 * 3.5, 6);
    expect(a.top_loss).toBe('downtime');
    expect(a.availability.time_based).toBeCloseTo(36 / 48, 9);
    // 192 kWh against an expected 152.9: energy above expectation, no cause to name.
    expect(b.losses.total_kwh).toBeCloseTo(expectedKwh - 192, 6);
    expect(b.losses.total_kwh).toBeLessThan(0);
    expect(b.top_loss).toBeNull();
    expect(a).toMatchObject({
      date,
      time_zone: 'Europe/Istanbul',
      company_name: 'Lossy Co',
      dc_capacity_kwp: P0,
    });
  });

  it('answers a month with the plant page’s month, and each plant’s yesterday without a date', async () => {
    const month = await losses(admin.token, { period: 'month', date });
    const a = month.items.find((i) => i.plant_id === lossy.plantId)!;
    expect(figures(a)).toEqual(figures(await kpis(lossy.plantId, 'month')));
    const yesterday = await losses(admin.token, {});
    expect(yesterday.period).toBe('day');
    expect(yesterday.items.find((i) => i.plant_id === lossy.plantId)!.date).toBe(
      istanbulDate(Date.now() - DAY),
    );
  });

  it('keeps other companies out, and refuses callers without the page, without a token and bad input', async () => {
    const strongViewer = await makeUser(t, {
      companyId: strong.companyId,
      permissions: pairs(['plant'], ['view']),
    });
    const seen = await losses(strongViewer.token, { period: 'day', date });
    expect(seen.items.map((i) => i.plant_id)).toEqual([strong.plantId]);
    const noPage = await makeUser(t, {
      companyId: strong.companyId,
      permissions: pairs(['dashboard'], ['view']),
    });
    expect((await t.http.get('/api/plants/losses', { token: noPage.token })).statusCode).toBe(403);
    expect((await t.http.get('/api/plants/losses')).statusCode).toBe(401);
    const badPeriod = await t.http.get('/api/plants/losses', {
      token: admin.token,
      query: { period: 'week' },
    });
    expect(badPeriod.statusCode).toBe(400);
    expect(badPeriod.json<{ errors: Record<string, string[]> }>().errors.period).toContain(
      'validation.invalidValue',
    );
    const badDate = await t.http.get('/api/plants/losses', {
      token: admin.token,
      query: { date: '2026-02-30' },
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json<{ errors: Record<string, string[]> }>().errors.date).toContain(
      'validation.invalidDate',
    );
  });
});
