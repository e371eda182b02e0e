/**
 * The performance analysis kept per plant (kept-analyses.ts) is never stale: each kind of change to what it
 * rests on changes the next answer, over HTTP against the real database, and an unchanged plant is answered
 * from what was kept. The days are written as the KPI engine stores them; the changes go through the routes
 * and the engine wherever one exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantKpisAnswer, PlantPerformanceAnswer } from '@solar/shared';
import { makeTree, makeUser, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { completeKpiDay, insertKpiDays, storedParamsKey } from '../../test/kpi-days';
import { dateOfDay, dayNumber } from './engine';

/** Days of the synthetic history: enough for the soiling's intervals, few enough to recompute quickly. */
const DAYS = 90;
const FIRST = '2025-03-01';

describe(`the kept performance analysis (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let url: string;

  /** A finished KPI day: 100 kWp, soiling 0.3 %/day washed every 30 days, complete. */
  function dayRow(i: number, key: string) {
    const reference = 500 + 100 * Math.sin(i / 7);
    const expected = 0.86 * reference;
    return completeKpiDay(tree.plantId, key, {
      date: dateOfDay(dayNumber(FIRST) + i),
      energyKwh: expected * (1 - 0.003 * (i % 30)),
      expectedEnergyKwh: expected,
      irradiationKwhM2: reference / 97,
      correctedReferenceKwh: reference,
    });
  }

  /** The performance answer and the year's KPI answer, and how many analyses came from what was kept. */
  async function answers() {
    const hitsBefore = t.ctx.performanceAnalyses.hits;
    const performance = await t.http.get(`${url}/performance`, { token: admin.token });
    expect(performance.statusCode, performance.body).toBe(200);
    const kpis = await t.http.get(`${url}/kpis`, {
      token: admin.token,
      query: { period: 'year', date: FIRST },
    });
    expect(kpis.statusCode, kpis.body).toBe(200);
    return {
      performance: performance.json<PlantPerformanceAnswer>(),
      kpiPerformance: kpis.json<PlantKpisAnswer>().performance,
      hits: t.ctx.performanceAnalyses.hits - hitsBefore,
    };
  }

  /** Asks twice: the second answer is the first, from what was kept. */
  async function steady() {
    const first = await answers();
    const again = await answers();
    expect(again.hits).toBe(2);
    expect(again.performance).toEqual(first.performance);
    expect(again.kpiPerformance).toEqual(first.kpiPerformance);
    return first;
  }

  /** Reads of a plant's stored days in full (kpi.repository readKpiDays), counted while `counting`. */
  let storedDayReads = 0;
  let counting = false;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        onQuery: (event) => {
          if (counting && /^select \* from "kpi_daily"/.test(event.query.sql)) storedDayReads++;
        },
      },
    );
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Kept');
    url = `/api/plants/${tree.plantId}`;
    await t.ctx.db
      .updateTable('plants')
      .set({ dc_capacity_kwp: 100, ac_capacity_kw: 90 })
      .where('id', '=', tree.plantId)
      .execute();
    const key = await storedParamsKey(t, admin.token, tree.plantId);
    await insertKpiDays(
      t,
      Array.from({ length: DAYS }, (_, i) => dayRow(i, key)),
    );
  });
  afterAll(() => t.close());

  it('answers an unchanged plant from what it kept', async () => {
    const before = await steady();
    expect(before.performance.span.days).toBe(DAYS);
    expect(before.performance.soiling.status).toBe('ok');
  });

  it('a new stored day changes the next answer', async () => {
    const before = await steady();
    const key = (
      await t.ctx.db.selectFrom('kpi_daily').select('params_key').limit(1).executeTakeFirstOrThrow()
    ).params_key;
    await t.ctx.db.insertInto('kpi_daily').values(dayRow(DAYS, key)).execute();
    const after = await answers();
    expect(after.hits).toBe(0);
    expect(after.performance.span.days).toBe(before.performance.span.days + 1);
    await steady();
  });

  it('a stored day computed again changes the next answer', async () => {
    const before = await steady();
    // As the refresh job's upsert does when late data changes a day: here beyond what 90 kW can make.
    await t.ctx.db
      .updateTable('kpi_daily')
      .set({ energy_kwh: 5_000, pr_energy_kwh: 5_000 })
      .where('plant_id', '=', tree.plantId)
      .where('date', '=', dateOfDay(dayNumber(FIRST) + 10))
      .execute();
    const after = await answers();
    expect(after.hits).toBe(0);
    expect(after.performance.excluded_days.impossible_energy).toBe(
      before.performance.excluded_days.impossible_energy + 1,
    );
    await steady();
  });

  it('a day marked dirty (late data) is computed and changes the next answer', async () => {
    const before = await steady();
    await t.ctx.db
      .insertInto('kpi_dirty_days')
      .values({ plant_id: tree.plantId, date: dateOfDay(dayNumber(FIRST) + 20), marked_at: Date.now() })
      .execute();
    // The day has no telemetry: computed again, it has no energy. Five years of stored days are read twice
    // for the analysis: once to find what to compute, once as computed, under the stamp read before.
    storedDayReads = 0;
    counting = true;
    const performance = await t.http.get(`${url}/performance`, { token: admin.token });
    counting = false;
    expect(performance.statusCode, performance.body).toBe(200);
    expect(storedDayReads).toBe(2);
    const made = performance.json<PlantPerformanceAnswer>();
    expect(made.excluded_days.no_energy).toBe(before.performance.excluded_days.no_energy + 1);
    // The year's KPI answer makes its own (with the year's soiling loss); the performance answer was kept.
    const after = await answers();
    expect(after.hits).toBe(1);
    expect(after.performance).toEqual(made);
    // ...and the analysis made then is kept: the day was stored first, so a plant catching up on its
    // history is not analysed again on every call.
    const again = await answers();
    expect(again.hits).toBe(2);
    expect(again.performance).toEqual(after.performance);
    await steady();
  });

  it('a flag accepted by an operator changes the next answer', async () => {
    const before = await steady();
    const date = dateOfDay(dayNumber(FIRST) + 30);
    const { id } = await t.ctx.db
      .insertInto('data_quality_flags')
      .values({
        plant_id: tree.plantId,
        device_id: tree.deviceId,
        signal_id: tree.signalId,
        reason: 'replayed_day',
        local_day: date,
        flag_key: `${tree.signalId}:replayed_day:${date}`,
        from_ts: Date.parse(`${date}T00:00:00+03:00`),
        to_ts: Date.parse(`${date}T00:00:00+03:00`) + 86_400_000,
        readings: 288,
        detected_at: 1,
        accepted_at: null,
        accepted_by: null,
        accept_note: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Detected before the day was stored: it changes nothing until it is accepted.
    const detected = await answers();
    expect(detected.performance).toEqual(before.performance);
    const accept = await t.http.post(
      `/api/data-quality/flags/${id}/accept`,
      { note: 'a true day' },
      { token: admin.token },
    );
    expect(accept.statusCode, accept.body).toBe(200);
    // Accepted after the day was stored, the day is computed again (from no telemetry: no energy).
    const after = await answers();
    expect(after.hits).toBe(0);
    expect(after.performance.excluded_days.no_energy).toBe(before.performance.excluded_days.no_energy + 1);
    await steady();
  });

  it("the plant's settings change the next answer", async () => {
    const before = await steady();
    const plant = (await t.http.get(url, { token: admin.token })).json<Record<string, unknown>>();
    const save = await t.http.post(
      url,
      {
        field_id: plant.field_id,
        name: plant.name,
        dc_capacity_kwp: 100,
        ac_capacity_kw: 20,
        time_zone: plant.time_zone,
      },
      { token: admin.token },
    );
    expect(save.statusCode, save.body).toBe(200);
    const after = await answers();
    expect(after.hits).toBe(0);
    expect(after.performance).not.toEqual(before.performance);
    await steady();
  });

  it('a model applied to the plant changes the next answer', async () => {
    const before = await steady();
    const put = await t.http.call('PUT', `${url}/model`, {
      token: admin.token,
      body: {
        design: {
          loss_factors: [{ name: 'soiling', fraction: 0.3 }],
          inverter_efficiency: 0.97,
          temperature_coefficient_per_k: -0.004,
          ac_limit_kw: null,
        },
        cleaning_cost: null,
        energy_price_per_kwh: null,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await answers();
    expect(after.hits).toBe(0);
    expect(after.performance).not.toEqual(before.performance);
    await steady();
  });
});
