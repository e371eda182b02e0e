import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  InverterSummaryAnswer,
  PlantKpisAnswer,
  PlantPowerAnswer,
  PlantsOverviewAnswer,
} from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import {
  istanbulDate,
  istanbulInstant,
  makePlantWithDay,
  MORNING,
  morningPoints,
  PLANT_DAY_KWP,
  type PlantWithDay,
  type TelemetryPoint,
} from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { startKpiRefresh } from './jobs/kpi-refresh';

const MIN = 60_000;
const DAY = 86_400_000;
/** Istanbul keeps UTC+3 all year: local 10:00 is 07:00 UTC. */
const utcOf = (date: string, hh: number, mm: number) => istanbulInstant(date, hh * 60 + mm);

// The plant (test/plant-day.ts): P0 120 kWp, 100 kW AC, two 50 kW inverters, γ −0.0037 /K, 14 % losses
// (the defaults).
const P0 = PLANT_DAY_KWP;
const GAMMA = -0.0037;
const LOSSES = 0.14;
const POA = MORNING.poaWm2;
const T_MOD = MORNING.moduleTemperatureC;
const STEP_KWH = 3.5;
const INTERVAL_H = 5 / 60;
/** 24 five-minute intervals 10:05…12:00 local carry data; INV-2 is down (no energy) in the last 4. */
const INTERVALS = MORNING.intervals;
const DOWN = 4;

// Every figure worked out here by hand from the points below, independently of the engine.
const inv1Kwh = INTERVALS * STEP_KWH; // 84
const inv2Kwh = (INTERVALS - DOWN) * STEP_KWH; // 70
const energyKwh = inv1Kwh + inv2Kwh; // 154
const irradiationKwhM2 = (INTERVALS * POA * INTERVAL_H) / 1000; // 1.6
const expectedKw = P0 * (POA / 1000) * (1 + GAMMA * (T_MOD - 25)) * (1 - LOSSES);
const expectedKwh = INTERVALS * expectedKw * INTERVAL_H;
const pr = energyKwh / P0 / irradiationKwhM2;
const prCorrected = energyKwh / (INTERVALS * P0 * (POA / 1000) * (1 + GAMMA * (T_MOD - 25)) * INTERVAL_H);
const downtimeKwh = DOWN * 0.5 * expectedKw * INTERVAL_H;
const timeAvailability = (INTERVALS + INTERVALS - DOWN) / (2 * INTERVALS);

describe(`kpi (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let kpiPlant: PlantWithDay;
  let tree: Tree;
  let other: Tree;
  let inv1: number;
  let inv2: number;
  const sig: Record<string, number> = {};
  const now = Date.now();
  const d1 = istanbulDate(now - 3 * DAY);
  const d2 = istanbulDate(now - 2 * DAY);

  const ingest = (points: TelemetryPoint[]) => kpiPlant.ingest(points);
  const get = async <T>(url: string, token = admin.token, query?: Record<string, string>) => {
    const res = await t.http.get(url, { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const signal = (deviceId: number, k: string) => kpiPlant.addSignal(deviceId, k);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    kpiPlant = await makePlantWithDay(t, admin, { name: 'Kpi' });
    tree = kpiPlant.tree;
    other = await makeTree(t, admin.token, 'OtherKpi');
    [inv1, inv2] = kpiPlant.inverters;
    sig.inv1Ac = tree.signalId;
    [sig.inv1Total, sig.inv2Total] = kpiPlant.signals.totals;
    sig.poa = kpiPlant.signals.poa;
    sig.tmod = kpiPlant.signals.moduleTemperature;
    sig.inv1Dc = await signal(inv1, 'dc_power');
    sig.inv1Status = await signal(inv1, 'status_code');
    sig.inv1Mppt1V = await signal(inv1, 'mppt1_dc_voltage');
    sig.inv1Mppt2V = await signal(inv1, 'mppt2_dc_voltage');
    sig.inv2Ac = await signal(inv2, 'ac_power');
    // Day 2 continues day 1's counters, so each day holds exactly its own steps.
    const day = (date: string) => ({
      date,
      stepKwh: [STEP_KWH, STEP_KWH] as const,
      inv2Steps: INTERVALS - DOWN,
    });
    await ingest(morningPoints(kpiPlant, [day(d1), day(d2)]));
  });
  afterAll(() => t.close());

  it('saves the plant model parameters with PVWatts defaults', async () => {
    const plant = await get<{ temperature_coefficient_per_k: number; system_loss_fraction: number }>(
      `/api/plants/${tree.plantId}`,
    );
    expect(plant.temperature_coefficient_per_k).toBeCloseTo(GAMMA, 10);
    expect(plant.system_loss_fraction).toBeCloseTo(LOSSES, 10);
  });

  it('answers a finished day with the figures worked out by hand', async () => {
    const k = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, admin.token, {
      period: 'day',
      date: d1,
    });
    expect(k.energy_source).toBe('inverters');
    expect(k.energy_kwh).toBeCloseTo(energyKwh, 6);
    expect(k.irradiance_source).toBe('measured');
    expect(k.irradiation_kwh_m2).toBeCloseTo(irradiationKwhM2, 6);
    expect(k.reference_yield_kwh_kwp).toBeCloseTo(irradiationKwhM2, 6);
    expect(k.specific_yield_kwh_kwp).toBeCloseTo(energyKwh / P0, 6);
    expect(k.pr).toBeCloseTo(pr, 6);
    expect(k.pr_temperature_corrected).toBeCloseTo(prCorrected, 6);
    expect(k.expected_energy_kwh).toBeCloseTo(expectedKwh, 6);
    expect(k.losses.downtime_kwh).toBeCloseTo(downtimeKwh, 6);
    expect(k.losses.clipping_kwh).toBeCloseTo(0, 9);
    expect(k.losses.total_kwh).toBeCloseTo(expectedKwh - energyKwh, 6);
    expect(k.availability.time_based).toBeCloseTo(timeAvailability, 9);
    expect(k.availability.energy_based).toBeCloseTo(1 - downtimeKwh / (energyKwh + downtimeKwh), 9);
    expect(k.co2_avoided_kg).toBeCloseTo(energyKwh * 0.44, 6);
    // Three devices polled every 5 min: 288 samples each expected; 25 + 25 + 24 received.
    expect(k.data_completeness).toBeCloseTo((25 + 25 + 24) / (3 * 288), 9);
    expect(k.model).toMatchObject({
      dc_capacity_kwp: P0,
      ac_capacity_kw: 100,
      g_ref_w_m2: 1000,
      co2_factor_country: 'TR',
    });
    expect(k.model.temperature_coefficient_per_k).toBeCloseTo(GAMMA, 10);
    expect(k.rows).toHaveLength(1);
    expect(k.includes_today).toBe(false);
  });

  it('sums a month and a year from the stored days and recomputes PR from the sums', async () => {
    const month = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, admin.token, {
      period: 'month',
      date: d1,
    });
    const row1 = month.rows.find((r) => r.key === d1)!;
    expect(row1.energy_kwh).toBeCloseTo(energyKwh, 6);
    const sameMonth = d1.slice(0, 7) === d2.slice(0, 7);
    if (sameMonth) {
      expect(month.rows.find((r) => r.key === d2)!.energy_kwh).toBeCloseTo(energyKwh, 6);
      expect(month.energy_kwh).toBeCloseTo(2 * energyKwh, 6);
      expect(month.pr).toBeCloseTo((2 * energyKwh) / P0 / (2 * irradiationKwhM2), 6);
    }
    const year = await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, admin.token, {
      period: 'year',
      date: d1,
    });
    expect(year.rows).toHaveLength(12);
    expect(year.rows.find((r) => r.key === d1.slice(0, 7))!.energy_kwh).toBeCloseTo(
      sameMonth ? 2 * energyKwh : energyKwh,
      6,
    );
    const stored = await t.ctx.db
      .selectFrom('kpi_daily')
      .select(['date', 'energy_kwh'])
      .where('plant_id', '=', tree.plantId)
      .orderBy('date')
      .execute();
    expect(stored.map((r) => [r.date, Number(r.energy_kwh)])).toEqual([
      [d1, energyKwh],
      [d2, energyKwh],
    ]);
  });

  it("answers a day's 5-minute power, expected power and irradiance", async () => {
    const p = await get<PlantPowerAnswer>(`/api/plants/${tree.plantId}/power`, admin.token, { date: d1 });
    expect(p.points).toHaveLength(288);
    const at = p.points.find((x) => x.ts === new Date(utcOf(d1, 10, 30)).toISOString())!;
    expect(at.actual_power_kw).toBeCloseTo((2 * STEP_KWH) / INTERVAL_H, 6);
    expect(at.expected_power_kw).toBeCloseTo(expectedKw, 6);
    expect(at.poa_w_m2).toBeCloseTo(POA, 6);
    const night = p.points.find((x) => x.ts === new Date(utcOf(d1, 3, 0)).toISOString())!;
    expect(night.actual_power_kw).toBeNull();
  });

  it('summarises an inverter against the plant', async () => {
    const ts = now - MIN;
    await ingest([
      { signal_id: sig.inv1Ac!, ts, value: 42 },
      { signal_id: sig.inv1Dc!, ts, value: 44 },
      { signal_id: sig.inv1Status!, ts, value: 4 },
      { signal_id: sig.inv1Mppt1V!, ts, value: 610 },
      { signal_id: sig.inv1Mppt2V!, ts, value: 604 },
    ]);
    const s = await get<InverterSummaryAnswer>(`/api/inverters/${inv1}/summary`, admin.token, { date: d1 });
    expect(s.ac_power_kw).toBe(42);
    expect(s.efficiency).toBeCloseTo(42 / 44, 9);
    expect(s.status_code).toBe(4);
    expect(s.status_text_key).toBe('kpi.inverterState.mppt');
    expect(s.mppts.map((m) => [m.index, m.dc_voltage_v])).toEqual([
      [1, 610],
      [2, 604],
    ]);
    expect(s.energy_kwh).toBeCloseTo(inv1Kwh, 6);
    expect(s.dc_capacity_kwp).toBeCloseTo(60, 9);
    expect(s.specific_yield_kwh_kwp).toBeCloseTo(inv1Kwh / 60, 6);
    expect(s.lifetime_energy_kwh).toBeCloseTo(1000 + 2 * inv1Kwh, 6);
    const peer = s.plant_inverters.find((i) => i.device_id === inv2)!;
    expect(peer.specific_yield_kwh_kwp).toBeCloseTo(inv2Kwh / 60, 6);
  });

  it('lists every plant in scope with live power, energy today and status', async () => {
    await ingest([
      { signal_id: sig.inv1Total!, ts: now - 2 * MIN, value: 1000 + 2 * inv1Kwh + 5 },
      { signal_id: sig.inv2Ac!, ts: now - MIN, value: 30 },
    ]);
    const o = await get<PlantsOverviewAnswer>('/api/plants/overview');
    const mine = o.items.find((i) => i.plant_id === tree.plantId)!;
    expect(mine.ac_power_kw).toBeCloseTo(72, 9);
    expect(mine.ac_capacity_percent).toBeCloseTo(72, 9);
    expect(mine.energy_today_kwh).toBeCloseTo(5, 6);
    expect(mine.energy_source).toBe('inverters');
    expect(['normal', 'night']).toContain(mine.status);
    expect(mine.active_alarms.total).toBe(0);
    expect(mine.last_data_at).not.toBeNull();
    expect(o.items.some((i) => i.plant_id === other.plantId)).toBe(true);

    const operator = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['plant'], ['view']),
    });
    const scoped = await get<PlantsOverviewAnswer>('/api/plants/overview', operator.token);
    const companyPlants = await t.ctx.db
      .selectFrom('plants')
      .select('id')
      .where('field_id', '=', tree.fieldId)
      .orderBy('id')
      .execute();
    expect(scoped.items.map((i) => i.plant_id)).toEqual(companyPlants.map((r) => r.id));
    expect(scoped.items.some((i) => i.plant_id === other.plantId)).toBe(false);
  });

  it('transposes GHI to the plane of array when the station has no POA sensor, and says so', async () => {
    const plant = await save(t, admin.token, '/api/plants/0', {
      field_id: tree.fieldId,
      name: 'GHI only',
      time_zone: 'Europe/Istanbul',
      dc_capacity_kwp: 60,
      latitude: 37.7,
      longitude: 33.5,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    const ws = await save(t, admin.token, '/api/devices/0', {
      plant_id: plant.id,
      name: 'WS-GHI',
      type: 'weather_station',
      protocol: 'http',
    });
    const ghi = await signal(ws.id, 'ghi');
    const res = await t.http.post(`/api/plants/${plant.id}/ingest-key`, {}, { token: admin.token });
    const ghiKey = res.json<{ key: string }>().key;
    // A November noon in Konya: the sun is low, so a south-facing 30° plane sees more than the horizontal.
    const ts = utcOf(d1, 12, 0) + MIN;
    const post = await t.http.post(
      '/api/telemetry',
      { points: [{ signal_id: ghi, ts, value: 500 }] },
      { headers: { 'x-api-key': ghiKey }, xsrf: false },
    );
    expect(post.statusCode, post.body).toBe(200);
    // A finished day is read from kpi_daily once its dirty mark is written, which follows the commit
    // asynchronously (jobs/kpi-refresh.ts marks per stored batch): wait for it rather than race it.
    let k!: PlantKpisAnswer;
    await vi.waitFor(
      async () => {
        k = await get<PlantKpisAnswer>(`/api/plants/${plant.id}/kpis`, admin.token, {
          period: 'day',
          date: d1,
        });
        expect(k.irradiance_source).toBe('transposed');
      },
      { timeout: 5_000, interval: 50 },
    );
    const p = await get<PlantPowerAnswer>(`/api/plants/${plant.id}/power`, admin.token, { date: d1 });
    const noon = p.points.find((x) => x.ts === new Date(utcOf(d1, 12, 0)).toISOString())!;
    expect(p.irradiance_source).toBe('transposed');
    expect(noon.poa_w_m2).toBeGreaterThan(500);
    expect(k.irradiation_kwh_m2).toBeCloseTo((noon.poa_w_m2! * INTERVAL_H) / 1000, 9);
  });

  it('keeps other companies, callers without the page and bad dates out', async () => {
    const outsider = await makeUser(t, {
      companyId: other.companyId,
      permissions: pairs(['plant', 'dashboard'], ['view']),
    });
    for (const url of [
      `/api/plants/${tree.plantId}/kpis`,
      `/api/plants/${tree.plantId}/power`,
      `/api/inverters/${inv1}/summary`,
    ]) {
      expect((await t.http.get(url, { token: outsider.token })).statusCode, url).toBe(404);
      expect((await t.http.get(url)).statusCode, url).toBe(401);
    }
    const noPage = await makeUser(t, {
      companyId: tree.companyId,
      permissions: pairs(['dashboard'], ['view']),
    });
    expect((await t.http.get('/api/plants/overview', { token: noPage.token })).statusCode).toBe(403);
    // The map and the single-line picker read the overview with their own page; nothing more opens to them.
    for (const page of ['map', 'single_line'] as const) {
      const viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs([page], ['view']) });
      const seen = await t.http.get('/api/plants/overview', { token: viewer.token });
      expect(seen.statusCode, page).toBe(200);
      expect(
        seen.json<PlantsOverviewAnswer>().items.map((i) => i.plant_id),
        page,
      ).toContain(tree.plantId);
      expect(
        seen.json<PlantsOverviewAnswer>().items.map((i) => i.plant_id),
        page,
      ).not.toContain(other.plantId);
      const kpis = await t.http.get(`/api/plants/${tree.plantId}/kpis`, { token: viewer.token });
      expect(kpis.statusCode, page).toBe(403);
    }
    expect((await t.http.get(`/api/plants/${tree.plantId}/kpis`, { token: noPage.token })).statusCode).toBe(
      403,
    );
    const bad = await t.http.get(`/api/plants/${tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: '2026-02-30' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.date).toContain('validation.invalidDate');
    const badPeriod = await t.http.get(`/api/plants/${tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'week', date: d1 },
    });
    expect(badPeriod.statusCode).toBe(400);
  });

  it('recomputes a stored day when late data arrives', async () => {
    const refresh = startKpiRefresh(t.ctx, t.app.log, { intervalMs: 3_600_000 });
    try {
      // A late irradiance sample for 12:10 local: the day's irradiation grows by 600 W/m² × 5 min.
      await ingest([{ signal_id: sig.poa!, ts: utcOf(d1, 12, 10) + 30_000, value: 600 }]);
      await refresh.flushed();
      const dirty = await t.ctx.db
        .selectFrom('kpi_dirty_days')
        .selectAll()
        .where('plant_id', '=', tree.plantId)
        .execute();
      expect(dirty.map((d) => d.date)).toContain(d1);
      expect(await refresh.runOnce()).toBeGreaterThanOrEqual(1);
      const row = await t.ctx.db
        .selectFrom('kpi_daily')
        .select('irradiation_kwh_m2')
        .where('plant_id', '=', tree.plantId)
        .where('date', '=', d1)
        .executeTakeFirstOrThrow();
      expect(Number(row.irradiation_kwh_m2)).toBeCloseTo(irradiationKwhM2 + (600 * INTERVAL_H) / 1000, 9);

      /** The day's irradiation read right after one more late 600 W/m² sample at local `mm` past 12. */
      const irradiationAfterSampleAt = async (mm: number) => {
        await ingest([{ signal_id: sig.poa!, ts: utcOf(d1, 12, mm) + 30_000, value: 600 }]);
        await refresh.flushed();
        const day = { period: 'day', date: d1 };
        return (await get<PlantKpisAnswer>(`/api/plants/${tree.plantId}/kpis`, admin.token, day))
          .irradiation_kwh_m2;
      };
      // Read through: a day still marked dirty is recomputed by the next read.
      expect(await irradiationAfterSampleAt(15)).toBeCloseTo(
        irradiationKwhM2 + (2 * 600 * INTERVAL_H) / 1000,
        9,
      );
      // A day a read recomputed is marked again by its next late sample: the read cleared the mark, so the
      // job must not take the day for marked still.
      expect(await irradiationAfterSampleAt(20)).toBeCloseTo(
        irradiationKwhM2 + (3 * 600 * INTERVAL_H) / 1000,
        9,
      );
    } finally {
      await refresh.stop();
    }
  });
});
