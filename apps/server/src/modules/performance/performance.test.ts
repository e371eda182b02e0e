import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  PlantKpisAnswer,
  PlantModelAnswer,
  PlantModelFitAnswer,
  PlantPerformanceAnswer,
} from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { istanbulInstant, makePlantWithDay, type TelemetryPoint } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { completeKpiDay, insertKpiDays, storedParamsKey, type SyntheticKpiDay } from '../../test/kpi-days';
import { dateOfDay, dayNumber, normalDraw, seededRandom } from './engine';

/** A day of a plant with known truth, as the KPI engine stores it in kpi_daily. */
describe(`performance (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let a: Tree;
  let b: Tree;
  let short: Tree;
  let other: Tree;

  /** Stores the days as finished KPI days of the plant, complete and judged. */
  async function storeDays(plantId: number, days: readonly SyntheticKpiDay[]) {
    const key = await storedParamsKey(t, admin.token, plantId);
    await insertKpiDays(
      t,
      days.map((d) => completeKpiDay(plantId, key, d)),
    );
  }

  /**
   * Three years of a 100 kWp plant losing 1 %/yr, soiling at −0.3 %/day washed every 73 days (so a year
   * apart the soiling is the same), with 1 % day-to-day noise: the truth the answers are held against.
   */
  function degradingPlant(first: string, count: number) {
    const random = seededRandom(4);
    const start = dayNumber(first);
    let trueSoilingLossKwh = 0;
    const days = Array.from({ length: count }, (_, i) => {
      const h = 5 + 1.5 * Math.sin((2 * Math.PI * i) / 365.25);
      const correctedReferenceKwh = 100 * h * 0.97;
      const expectedEnergyKwh = 0.86 * correctedReferenceKwh;
      // By day of the year, so that a pair one calendar year apart (also across 29 February) soils alike.
      const date = dateOfDay(start + i);
      const doy = Math.min(dayNumber(date) - dayNumber(`${date.slice(0, 4)}-01-01`), 364);
      const ratio = 1 - 0.003 * (doy % 73);
      trueSoilingLossKwh += expectedEnergyKwh * (1 - ratio);
      const energyKwh = expectedEnergyKwh * 0.99 ** (i / 365) * ratio * (1 + 0.01 * normalDraw(random));
      return {
        date: dateOfDay(start + i),
        energyKwh,
        irradiationKwhM2: h,
        correctedReferenceKwh,
        expectedEnergyKwh,
      };
    });
    return { days, trueSoilingLossKwh };
  }

  let truth: ReturnType<typeof degradingPlant>;

  beforeAll(async () => {
    // Three years of daily counter readings are ingested: the raw window must reach back that far.
    t = await createTestApp({ telemetry: { rawRetentionDays: 3650 } });
    admin = await makeUser(t, { admin: true });
    a = await makeTree(t, admin.token, 'PerfA');
    b = await makeTree(t, admin.token, 'PerfB');
    short = await makeTree(t, admin.token, 'PerfShort');
    other = await makeTree(t, admin.token, 'PerfOther');
    await t.ctx.db
      .updateTable('plants')
      .set({ dc_capacity_kwp: 100, ac_capacity_kw: 90 })
      .where('id', 'in', [a.plantId, b.plantId, short.plantId])
      .execute();
    truth = degradingPlant('2022-01-01', 3 * 365);
    await storeDays(a.plantId, truth.days);
    await storeDays(short.plantId, degradingPlant('2025-01-01', 200).days);
  });
  afterAll(() => t.close());

  it('finds the degradation rate and soiling loss of three years within their tolerances', async () => {
    await t.http.call('PUT', `/api/plants/${a.plantId}/model`, {
      token: admin.token,
      body: { design: null, cleaning_cost: 50, energy_price_per_kwh: 0.1, currency: 'EUR' },
    });
    const res = await t.http.get(`/api/plants/${a.plantId}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json<PlantPerformanceAnswer>();
    expect(p.model_source).toBe('default');
    expect(p.span).toEqual({
      from: '2022-01-01',
      to: dateOfDay(dayNumber('2022-01-01') + 3 * 365 - 1),
      days: 3 * 365,
    });
    expect(p.excluded_days).toEqual({ no_energy: 0, incomplete_data: 0, impossible_energy: 0 });
    const d = p.degradation.plant;
    if (d.status !== 'ok') throw new Error(JSON.stringify(d));
    // 1 % daily noise over three years: the estimate's σ is ≈ 0.06 %/yr (30 seeds), held within 0.2 %/yr.
    expect(Math.abs(d.rate_pct_per_year + 1)).toBeLessThan(0.2);
    expect(d.ci_low_pct_per_year).toBeLessThan(d.rate_pct_per_year);
    expect(d.ci_high_pct_per_year).toBeGreaterThan(d.rate_pct_per_year);
    expect(d.confidence_level).toBeCloseTo(0.682, 9);
    // The test inverter has no energy signal: no per-inverter answer rather than a guess.
    expect(p.degradation.inverters).toEqual([]);
    if (p.soiling.status !== 'ok') throw new Error(JSON.stringify(p.soiling));
    expect(Math.abs(p.soiling.loss_kwh / truth.trueSoilingLossKwh - 1)).toBeLessThan(0.1);
    expect(p.soiling.recoveries.length).toBe(14);
    expect(p.soiling.ratio_series.length).toBeGreaterThan(1000);
    expect(p.soiling.current_rate_per_day).toBeCloseTo(-0.003, 3);
    // The data it rests on and its uncertainty: every day of the three years is usable and estimated.
    expect(p.soiling).toMatchObject({
      from: p.span.from,
      to: p.span.to,
      span_days: p.span.days - 1,
      usable_days: p.span.days,
      days_used: p.soiling.ratio_series.length,
      confidence_level: 0.95,
    });
    expect(p.soiling.loss_kwh_low).toBeLessThan(p.soiling.loss_kwh);
    expect(p.soiling.loss_kwh_high).toBeGreaterThan(p.soiling.loss_kwh);
    expect(p.soiling_period).toBeUndefined();
    expect(p.payback).toMatchObject({ cleaning_cost: 50, energy_price_per_kwh: 0.1, currency: 'EUR' });
    expect(p.payback!.date).not.toBeNull();
  });

  it('answers the soiling loss of a period, with its interval, as the loss view asks for it', async () => {
    const url = `/api/plants/${a.plantId}/performance`;
    const periodOf = async (query: string, plantUrl = url) => {
      const res = await t.http.get(`${plantUrl}?${query}`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PlantPerformanceAnswer>().soiling_period;
    };
    const month = await periodOf('from=2023-03-01&to=2023-03-31');
    if (month?.status !== 'ok') throw new Error(JSON.stringify(month));
    expect(month).toMatchObject({
      from: '2023-03-01',
      to: '2023-03-31',
      days_estimated: 31,
      usable_days: 31,
    });
    expect(month.confidence_level).toBe(0.95);
    expect(month.loss_kwh).toBeGreaterThan(0);
    expect(month.loss_kwh_low).toBeLessThan(month.loss_kwh);
    expect(month.loss_kwh_high).toBeGreaterThan(month.loss_kwh);
    // The months of a year add up to the year's loss: one estimate, cut by period.
    const year = await periodOf('from=2023-01-01&to=2023-12-31');
    if (year?.status !== 'ok') throw new Error(JSON.stringify(year));
    let sum = 0;
    for (let m = 0; m < 12; m++) {
      const first = `2023-${String(m + 1).padStart(2, '0')}-01`;
      const next = m === 11 ? '2024-01-01' : `2023-${String(m + 2).padStart(2, '0')}-01`;
      const r = await periodOf(`from=${first}&to=${dateOfDay(dayNumber(next) - 1)}`);
      if (r?.status !== 'ok') throw new Error(JSON.stringify(r));
      sum += r.loss_kwh;
    }
    expect(sum).toBeCloseTo(year.loss_kwh, 6);
    // Days without data: no estimate, said as such, never 0.
    expect(await periodOf('from=2020-01-01&to=2020-01-31')).toEqual({
      status: 'not_estimated',
      from: '2020-01-01',
      to: '2020-01-31',
      usable_days: 0,
    });
    expect(
      await periodOf('from=2025-01-01&to=2025-01-31', `/api/plants/${other.plantId}/performance`),
    ).toMatchObject({ status: 'insufficient_data', usable_days: 0 });
    // Both dates or neither, in order.
    for (const q of ['from=2023-03-01', 'from=2023-03-31&to=2023-03-01', 'from=2023-02-30&to=2023-03-01']) {
      const bad = await t.http.get(`${url}?${q}`, { token: admin.token });
      expect(bad.statusCode, q).toBe(400);
    }
  });

  it("carries the performance answer's degradation and soiling in the KPI answer, or says why not", async () => {
    const kpisOf = async (plantId: number, period: string, date: string) => {
      const res = await t.http.get(`/api/plants/${plantId}/kpis`, {
        token: admin.token,
        query: { period, date },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PlantKpisAnswer>().performance;
    };
    const performanceOf = async (plantId: number, from: string, to: string) => {
      const res = await t.http.get(`/api/plants/${plantId}/performance`, {
        token: admin.token,
        query: { from, to },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PlantPerformanceAnswer>();
    };
    // Three years: the KPI answer's figures are the performance answer's, for a month and for a year.
    for (const [period, date, from, to] of [
      ['month', '2024-03-15', '2024-03-01', '2024-03-31'],
      ['year', '2023-06-01', '2023-01-01', '2023-12-31'],
    ] as const) {
      const k = await kpisOf(a.plantId, period, date);
      const p = await performanceOf(a.plantId, from, to);
      expect(k.degradation.status).toBe('ok');
      expect(k.degradation).toEqual(p.degradation.plant);
      expect(k.soiling.status).toBe('ok');
      expect(k.soiling).toEqual(p.soiling_period);
      expect(k.soiling_data).toEqual({
        from: '2022-01-01',
        to: p.span.to,
        span_days: p.span.days - 1,
        usable_days: p.span.days,
        days_needed: null,
      });
    }
    // 200 days: too few for the year-on-year pairs, said with the span found and the months needed.
    const young = await kpisOf(short.plantId, 'month', '2025-03-10');
    expect(young.degradation).toMatchObject({
      status: 'insufficient_data',
      from: '2025-01-01',
      to: dateOfDay(dayNumber('2025-01-01') + 199),
      months_needed: 24,
    });
    if (young.degradation.status !== 'insufficient_data') throw new Error('unreachable');
    expect(young.degradation.months_found).toBeLessThan(24);
    // Five days: too few for the soiling method as well, which says what it has and needs.
    const baby = await makeTree(t, admin.token, 'PerfYoung');
    await t.ctx.db
      .updateTable('plants')
      .set({ dc_capacity_kwp: 100, ac_capacity_kw: 90 })
      .where('id', '=', baby.plantId)
      .execute();
    await storeDays(baby.plantId, degradingPlant('2025-06-01', 5).days);
    const k = await kpisOf(baby.plantId, 'month', '2025-06-03');
    expect(k.degradation).toMatchObject({ status: 'insufficient_data', months_needed: 24 });
    expect(k.soiling).toEqual({
      status: 'insufficient_data',
      from: '2025-06-01',
      to: '2025-06-30',
      usable_days: 5,
    });
    expect(k.soiling_data).toEqual({
      from: '2025-06-01',
      to: '2025-06-05',
      span_days: 4,
      usable_days: 5,
      days_needed: 7,
    });
  });

  it("finds each inverter's own rate from its energy counter", async () => {
    const plant = await makePlantWithDay(t, admin, { name: 'PerfInv' });
    const random = seededRandom(12);
    const start = dayNumber('2022-01-01');
    const rates = [-1, -2];
    const counters = [1000, 1000];
    const points: TelemetryPoint[] = [];
    const days: SyntheticKpiDay[] = [];
    for (let i = 0; i < 3 * 365; i++) {
      const date = dateOfDay(start + i);
      const h = 5 + 1.5 * Math.sin((2 * Math.PI * i) / 365.25);
      const correctedReferenceKwh = 120 * h * 0.97;
      const expectedEnergyKwh = 0.86 * correctedReferenceKwh;
      const kwh = rates.map(
        (r) => 0.5 * expectedEnergyKwh * (1 + r / 100) ** (i / 365) * (1 + 0.01 * normalDraw(random)),
      );
      // One reading a day at local noon: the day's counter delta is the energy since the day before.
      for (const n of [0, 1]) {
        counters[n]! += kwh[n]!;
        points.push({
          signal_id: plant.signals.totals[n]!,
          ts: istanbulInstant(date, 720),
          value: counters[n]!,
        });
      }
      days.push({
        date,
        energyKwh: kwh[0]! + kwh[1]!,
        irradiationKwhM2: h,
        correctedReferenceKwh,
        expectedEnergyKwh,
      });
    }
    for (let i = 0; i < points.length; i += 1000) await plant.ingest(points.slice(i, i + 1000));
    await storeDays(plant.tree.plantId, days);
    // The readings marked their days for the KPI refresh; the stored days stand for them here.
    await t.ctx.db.deleteFrom('kpi_dirty_days').where('plant_id', '=', plant.tree.plantId).execute();
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json<PlantPerformanceAnswer>();
    const rateOf = (r: PlantPerformanceAnswer['degradation']['plant']) => {
      if (r.status !== 'ok') throw new Error(JSON.stringify(r));
      return r.rate_pct_per_year;
    };
    expect(Math.abs(rateOf(p.degradation.plant) + 1.5)).toBeLessThan(0.2);
    const byDevice = new Map(p.degradation.inverters.map((inv) => [inv.device_id, inv.result]));
    expect(Math.abs(rateOf(byDevice.get(plant.inverters[0])!) + 1)).toBeLessThan(0.2);
    expect(Math.abs(rateOf(byDevice.get(plant.inverters[1])!) + 2)).toBeLessThan(0.2);
  });

  it('says how much data there is when there is too little', async () => {
    const res = await t.http.get(`/api/plants/${short.plantId}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json<PlantPerformanceAnswer>();
    expect(p.degradation.plant).toEqual({
      status: 'insufficient_data',
      from: '2025-01-01',
      to: '2025-07-19',
      span_days: 199,
      months_found: 6,
      months_needed: 24,
    });
    expect(p.payback).toBeNull();
    const empty = await t.http.get(`/api/plants/${other.plantId}/performance`, { token: admin.token });
    expect(empty.json<PlantPerformanceAnswer>()).toMatchObject({
      span: { from: null, to: null, days: 0 },
      soiling: {
        status: 'insufficient_data',
        from: null,
        to: null,
        span_days: 0,
        usable_days: 0,
        days_needed: 7,
      },
    });
  });

  it('fits the loss and γ on clear days, applies them to the KPIs and audits it', async () => {
    const random = seededRandom(8);
    const gamma0 = -0.0037;
    const days: SyntheticKpiDay[] = Array.from({ length: 40 }, (_, i) => {
      const h = i % 5 === 4 ? 2 : 6 + random();
      const referenceKwh = 100 * h;
      const temperatureTermKwhK = referenceKwh * (5 + 20 * random());
      return {
        date: dateOfDay(dayNumber('2024-05-01') + i),
        energyKwh: 0.9 * (referenceKwh - 0.0042 * temperatureTermKwhK) * (1 + 0.002 * normalDraw(random)),
        irradiationKwhM2: h,
        correctedReferenceKwh: referenceKwh + gamma0 * temperatureTermKwhK,
        expectedEnergyKwh: 0.86 * (referenceKwh + gamma0 * temperatureTermKwhK),
      };
    });
    await storeDays(b.plantId, days);
    const tooShort = await t.http.post(
      `/api/plants/${b.plantId}/model/fit`,
      { from: '2024-05-01', to: '2024-05-04' },
      { token: admin.token },
    );
    expect(tooShort.json<PlantModelFitAnswer>()).toEqual({
      status: 'insufficient_data',
      days: 4,
      days_needed: 5,
    });
    const res = await t.http.post(
      `/api/plants/${b.plantId}/model/fit`,
      { from: '2024-05-01', to: '2024-06-09' },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const fit = res.json<PlantModelFitAnswer>();
    if (fit.status !== 'fitted') throw new Error(res.body);
    const m = fit.model;
    expect(m).toMatchObject({
      source: 'fitted',
      fitted_from: '2024-05-01',
      fitted_to: '2024-06-09',
      fit_days: 32,
    });
    expect(m.system_loss_fraction).toBeCloseTo(0.1, 2);
    expect(m.temperature_coefficient_per_k).toBeCloseTo(-0.0042, 4);
    expect(m.system_loss_fraction_se).toBeGreaterThan(0);
    expect(m.system_loss_fraction_se).toBeLessThan(0.01);
    expect(m.temperature_coefficient_per_k_se).toBeLessThan(0.0003);
    const plant = await t.ctx.db
      .selectFrom('plants')
      .select(['system_loss_fraction', 'temperature_coefficient_per_k'])
      .where('id', '=', b.plantId)
      .executeTakeFirstOrThrow();
    expect(Number(plant.system_loss_fraction)).toBeCloseTo(m.system_loss_fraction, 12);
    expect(Number(plant.temperature_coefficient_per_k)).toBeCloseTo(m.temperature_coefficient_per_k, 12);
    const kpis = await t.http.get(`/api/plants/${b.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: '2024-05-02' },
    });
    expect(kpis.json<{ model: { system_loss_fraction: number } }>().model.system_loss_fraction).toBeCloseTo(
      m.system_loss_fraction,
      12,
    );
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('entity', '=', 'plant_model')
      .where('entity_id', '=', b.plantId)
      .execute();
    expect(audit).toEqual([{ action: 'fit', user_id: admin.id }]);
  });

  it('saves design parameters as one lumped loss, audited, and says so in the performance answer', async () => {
    const body = {
      design: {
        loss_factors: [
          { name: 'soiling', fraction: 0.02 },
          { name: 'wiring', fraction: 0.015 },
        ],
        temperature_coefficient_per_k: -0.0035,
        inverter_efficiency: 0.98,
        ac_limit_kw: 90,
      },
      cleaning_cost: 120,
      energy_price_per_kwh: 0.08,
      currency: 'TRY',
    };
    const res = await t.http.call('PUT', `/api/plants/${short.plantId}/model`, { token: admin.token, body });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json<PlantModelAnswer>();
    expect(m).toMatchObject({
      source: 'design',
      temperature_coefficient_per_k: -0.0035,
      inverter_efficiency: 0.98,
      ac_limit_kw: 90,
      cleaning_cost: 120,
      system_loss_fraction_se: null,
      updated_by: admin.id,
    });
    expect(m.system_loss_fraction).toBeCloseTo(1 - 0.98 * 0.98 * 0.985, 12);
    const got = await t.http.get(`/api/plants/${short.plantId}/model`, { token: admin.token });
    expect(got.json<PlantModelAnswer>()).toEqual(m);
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'plant_model')
      .where('entity_id', '=', short.plantId)
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('update');
    expect(JSON.parse(audit.before!)).toMatchObject({ source: 'default' });
    expect(JSON.parse(audit.after!)).toMatchObject({ source: 'design' });
    const perf = await t.http.get(`/api/plants/${short.plantId}/performance`, { token: admin.token });
    expect(perf.json<PlantPerformanceAnswer>().model_source).toBe('design');
  });

  it('refuses no token, a missing permission, another scope and a bad body', async () => {
    const url = `/api/plants/${a.plantId}`;
    expect((await t.http.get(`${url}/performance`)).statusCode).toBe(401);
    expect((await t.http.get(`${url}/model`)).statusCode).toBe(401);
    const noPlant = await makeUser(t, { companyId: a.companyId, permissions: pairs(['plant_management']) });
    expect((await t.http.get(`${url}/performance`, { token: noPlant.token })).statusCode).toBe(403);
    const viewer = await makeUser(t, {
      companyId: a.companyId,
      permissions: [...pairs(['plant'], ['view']), ...pairs(['plant_management'], ['view'])],
    });
    expect((await t.http.get(`${url}/performance`, { token: viewer.token })).statusCode).toBe(200);
    expect((await t.http.get(`${url}/model`, { token: viewer.token })).statusCode).toBe(200);
    const put = await t.http.call('PUT', `${url}/model`, {
      token: viewer.token,
      body: { design: null, cleaning_cost: null, energy_price_per_kwh: null },
    });
    expect(put.statusCode).toBe(403);
    const fit = await t.http.post(
      `${url}/model/fit`,
      { from: '2024-01-01', to: '2024-02-01' },
      { token: viewer.token },
    );
    expect(fit.statusCode).toBe(403);
    const hidden = `/api/plants/${other.plantId}`;
    expect((await t.http.get(`${hidden}/performance`, { token: viewer.token })).statusCode).toBe(404);
    expect((await t.http.get(`${hidden}/model`, { token: viewer.token })).statusCode).toBe(404);
    const editor = await makeUser(t, { companyId: a.companyId, permissions: pairs(['plant_management']) });
    const hiddenPut = await t.http.call('PUT', `${hidden}/model`, {
      token: editor.token,
      body: { design: null, cleaning_cost: 1, energy_price_per_kwh: 1 },
    });
    expect(hiddenPut.statusCode).toBe(404);
    expect((await t.http.get('/api/plants/999999/performance', { token: admin.token })).statusCode).toBe(404);
    const bad = await t.http.call('PUT', `${url}/model`, {
      token: admin.token,
      body: {
        design: {
          loss_factors: [{ name: 'x', fraction: 0.6 }],
          temperature_coefficient_per_k: 0.01,
          inverter_efficiency: 0.2,
          ac_limit_kw: null,
        },
        cleaning_cost: -1,
        energy_price_per_kwh: null,
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'cleaning_cost',
      'design.inverter_efficiency',
      'design.loss_factors',
      'design.loss_factors.0.fraction',
      'design.temperature_coefficient_per_k',
    ]);
    const tooLossy = await t.http.call('PUT', `${url}/model`, {
      token: admin.token,
      body: {
        design: {
          loss_factors: [
            { name: 'a', fraction: 0.4 },
            { name: 'b', fraction: 0.4 },
          ],
          temperature_coefficient_per_k: -0.004,
          inverter_efficiency: null,
          ac_limit_kw: null,
        },
        cleaning_cost: null,
        energy_price_per_kwh: null,
      },
    });
    expect(tooLossy.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'design.loss_factors': ['validation.outOfRange'],
    });
    const reversed = await t.http.post(
      `${url}/model/fit`,
      { from: '2024-02-01', to: '2024-01-01' },
      { token: admin.token },
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      to: ['validation.rangeOrder'],
    });
    const tooLong = await t.http.post(
      `${url}/model/fit`,
      { from: '2023-01-01', to: '2024-06-01' },
      { token: admin.token },
    );
    expect(tooLong.statusCode).toBe(400);
  });
});
