import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as simulator from '@solar/simulator';
import type { PlantTruth } from '@solar/simulator';
import type { PlantPerformanceAnswer } from '@solar/shared';
import { makeUser, type TestUser } from '../../test/org-fixtures';
import { istanbulInstant, makePlantWithDay, type PlantWithDay } from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { loadPlantTopology } from '../../simulator/simulator.repository';
import type { Point } from '../../telemetry-store/aggregate';
import { storeRollupsOnly } from '../../telemetry-store/history-rollups';
import { markDaysOfInstantsDirty } from '../kpi';
import { dateOfDay, dayNumber } from './engine';

const MIN = 60_000;
const DAY_MS = 86_400_000;
/** The readings' step: the KPI engine computes a day from 5-minute rollups, one reading each. */
const STEP_MS = 5 * MIN;
const FIRST_DAY = '2023-11-01';
/** 25 months: two calendar years of pairs for the year-on-year method, a month to spare. */
const DAYS = 761;
/** The server's clock: the morning after the history (its last day is then a finished day). */
const NOW_MS = istanbulInstant(dateOfDay(dayNumber(FIRST_DAY) + DAYS), 9 * 60);
/** Each inverter's module degradation, the simulator's truth: −0.8 and −0.3 %/yr. */
const RATES = [-0.008, -0.003] as const;
/** Soiling of the plant: 0.2 %/day, cleaned every 60 days, and rains (the field's weather) between. */
const SOILING = { ratePerDay: 0.002, cleaningEveryDays: 60 };

/**
 * Tolerances, each with why:
 * - degradation: ±0.2 %/yr for the plant and each inverter, the bound the performance HTTP test holds on a
 *   synthetic series with 1 % daily noise. Measured here: −0.66, −0.14 and −0.40 %/yr against −0.81,
 *   −0.30 and −0.55 (the truth as a year-on-year ratio): 0.15–0.16 %/yr high. Without soiling the same
 *   plant gives −0.72, −0.21 and −0.46: 0.09 %/yr, most likely the two years' different weather (the KPI
 *   model lacks the part-load efficiency curve and has γ −0.37 %/K against the simulator's −0.4 %/K), the
 *   rest from soiling the method does not see (5 recoveries found of the truth's cleanings and rains).
 *   The same plant simulated with seed 8 comes back 0.06 %/yr low instead (−0.61, −0.86, −0.36): the offset
 *   is this weather's draw, not a bias of the method, and the interval below is what must cover it;
 * - soiling loss: ±25 % of the true loss (Σ expected energy × (1 − true ratio) over the days the answer
 *   estimates): the method assumes every recovery cleans fully and estimates only intervals of 7 usable
 *   days or more whose decline is significant, while rains of a cloudy season come every few days.
 *   Measured: 4,300 [3,781, 4,757] kWh on 180 days (3 intervals) against 3,876 kWh, 11 % high: the
 *   95 % interval holds the truth, asserted below.
 */
const RATE_TOLERANCE_PCT = 0.2;
const SOILING_LOSS_TOLERANCE = 0.25;

/**
 * Samples `days` local days of the virtual plant from FIRST_DAY every 5 minutes and stores them as rollups
 * only (as a history older than the raw retention is), then marks the days for the KPI engine.
 */
async function storeSimulatedHistory(
  t: TestApp,
  virtual: simulator.VirtualPlant,
  days: number,
  plantId: number,
  nowMs: number,
) {
  // Sampled in chunks of 60 local days, each stored as rollups in one transaction; a chunk starts at a
  // local midnight, where the counters stand still, so nothing is lost at its edge.
  const bySignal = new Map<number, Point[]>();
  const flush = async () => {
    await storeRollupsOnly(t.ctx.db, t.ctx.dialect, bySignal);
    bySignal.clear();
  };
  const start = istanbulInstant(FIRST_DAY, 0);
  const end = start + days * DAY_MS;
  for (let ts = start; ts < end; ts += STEP_MS) {
    for (const device of virtual.sample(ts))
      for (const p of device.points) {
        const list = bySignal.get(p.signalId) ?? [];
        list.push({ ts, value: p.value });
        bySignal.set(p.signalId, list);
      }
    if ((ts - start + STEP_MS) % (60 * DAY_MS) === 0) await flush();
  }
  await flush();
  // As the history import does after writing rollups only: the KPI days are computed on the next read.
  const instants = Array.from({ length: days }, (_, i) => start + i * DAY_MS + 12 * 3_600_000);
  await markDaysOfInstantsDirty(t.ctx.db, plantId, 'Europe/Istanbul', instants, nowMs);
}

/**
 * The performance module against the simulator's truth: a plant of two 50 kW inverters near Konya is
 * simulated for 25 months with a known degradation per inverter and a known soiling, its readings stored
 * as rollups only (as a history older than the raw retention is), and its performance answer over HTTP
 * must recover the rates and the soiling loss within the tolerances above.
 */
// These judge the methods against known truth, not the storage: the module's own tests cover both databases,
// and on PostgreSQL this file alone took about three minutes of a CI run, so it runs on SQLite only.
describe.skipIf(dialectUnderTest !== 'sqlite')(
  `performance against the simulator's truth (${dialectUnderTest})`,
  () => {
    let t: TestApp;
    let admin: TestUser;
    let plant: PlantWithDay;
    let truth: PlantTruth;
    let answer: PlantPerformanceAnswer;

    beforeAll(async () => {
      t = await createTestApp({}, { now: () => NOW_MS });
      admin = await makeUser(t, { admin: true });
      plant = await makePlantWithDay(t, admin, { name: 'SimPerf' });
      // 100 kWp on 100 kW of inverters: no clipping, which would hide the degradation of the clipped hours.
      await t.ctx.db
        .updateTable('plants')
        .set({ dc_capacity_kwp: 100, commissioning_date: FIRST_DAY })
        .where('id', '=', plant.tree.plantId)
        .execute();
      const definition = (await loadPlantTopology(t.ctx.db)).find(
        (p) => Number(p.plantId) === plant.tree.plantId,
      )!;
      const virtual = simulator.createVirtualPlant(definition, {
        seed: 7,
        faults: false,
        degradationPerYear: { [plant.inverters[0]]: RATES[0], [plant.inverters[1]]: RATES[1] },
        soiling: SOILING,
      });
      truth = virtual.truth();

      await storeSimulatedHistory(t, virtual, DAYS, plant.tree.plantId, NOW_MS);

      const res = await t.http.get(`/api/plants/${plant.tree.plantId}/performance`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json<PlantPerformanceAnswer>();
      // 25 months of 5-minute samples: about two minutes alone, more on a shared machine.
    }, 600_000);
    afterAll(() => t.close());

    /** The year-on-year rate of a linear loss, in %/yr: the first year's pairs, the median pair's. */
    const yoyTruthPct = (rate: number) => (100 * rate) / (1 + rate);

    type Degradation = PlantPerformanceAnswer['degradation']['plant'];
    /** Each estimate (plant, then inverters) with its truth as a year-on-year rate, in %/yr. */
    const estimates = (): { label: string; result: Degradation; truePct: number }[] => [
      { label: 'plant', result: answer.degradation.plant, truePct: yoyTruthPct((RATES[0] + RATES[1]) / 2) },
      ...plant.inverters.map((deviceId, n) => {
        const inverter = answer.degradation.inverters.find((i) => i.device_id === deviceId)!;
        return { label: inverter.name, result: inverter.result, truePct: yoyTruthPct(RATES[n]!) };
      }),
    ];
    const okResult = (label: string, result: Degradation) => {
      if (result.status !== 'ok') throw new Error(`${label}: ${JSON.stringify(result)}`);
      return result;
    };
    const seen = (label: string, r: Extract<Degradation, { status: 'ok' }>, truePct: number) =>
      `${label}: ${r.rate_pct_per_year.toFixed(3)} [${r.ci_low_pct_per_year.toFixed(3)}, ${r.ci_high_pct_per_year.toFixed(3)}] against ${truePct.toFixed(3)} %/yr`;

    it("recovers the plant's and each inverter's degradation rate within 0.2 %/yr", () => {
      expect(answer.degradation.inverters.map((i) => i.device_id).sort()).toEqual(
        [...plant.inverters].sort(),
      );
      for (const [n, deviceId] of plant.inverters.entries())
        expect(truth.degradationPerYear[String(deviceId)]).toBe(RATES[n]);
      for (const { label, result, truePct } of estimates()) {
        const r = okResult(label, result);
        expect(Math.abs(r.rate_pct_per_year - truePct), seen(label, r, truePct)).toBeLessThan(
          RATE_TOLERANCE_PCT,
        );
      }
    });

    // Two things make it hold: the interval is a circular block bootstrap of the pairs (engine/degradation.ts;
    // the plain bootstrap gave ±0.03…0.08 %/yr here and held none of the three truths), and soiling is
    // answered only for intervals whose decline is significant (before, long intervals' noise-level slopes
    // were divided out as soiling and moved the rates 0.15 %/yr). Measured with both: plant −0.62
    // [−0.92, −0.37], inverters −0.88 [−1.18, −0.63] and −0.37 [−0.66, −0.12] %/yr against −0.55, −0.81 and
    // −0.30 (blocks of 33 pairs).
    it('holds the truth in the reported 68.2 % interval', () => {
      for (const { label, result, truePct } of estimates()) {
        const r = okResult(label, result);
        expect(truePct, seen(label, r, truePct)).toBeGreaterThanOrEqual(r.ci_low_pct_per_year);
        expect(truePct, seen(label, r, truePct)).toBeLessThanOrEqual(r.ci_high_pct_per_year);
      }
    });

    it('recovers the soiling loss over the days it estimates', async () => {
      if (answer.soiling.status !== 'ok') throw new Error(JSON.stringify(answer.soiling));
      const expected = new Map(
        (
          await t.ctx.db
            .selectFrom('kpi_daily')
            .select(['date', 'expected_energy_kwh'])
            .where('plant_id', '=', plant.tree.plantId)
            .execute()
        ).map((r) => [r.date, Number(r.expected_energy_kwh ?? 0)]),
      );
      let trueLossKwh = 0;
      for (const { date } of answer.soiling.ratio_series)
        trueLossKwh += expected.get(date)! * (1 - truth.soilingRatio(istanbulInstant(date, 12 * 60)));
      const seen = `loss ${answer.soiling.loss_kwh.toFixed(0)} [${answer.soiling.loss_kwh_low.toFixed(0)}, ${answer.soiling.loss_kwh_high.toFixed(0)}] kWh against ${trueLossKwh.toFixed(0)} kWh, recoveries ${answer.soiling.recoveries.length}`;
      expect(trueLossKwh, seen).toBeGreaterThan(0);
      expect(Math.abs(answer.soiling.loss_kwh / trueLossKwh - 1), seen).toBeLessThan(SOILING_LOSS_TOLERANCE);
      // The 95 % interval holds the true loss. Before the slope intervals allowed for serially correlated
      // residuals (engine/soiling.ts, serialVarianceFactor) it was 4,051…4,515 kWh against 3,876: the
      // third interval (76 days holding two rains too small to count as recoveries) was fitted as one line
      // whose residuals had lag-1 autocorrelation 0.59, and its slope interval treated them as independent.
      expect(trueLossKwh, seen).toBeGreaterThanOrEqual(answer.soiling.loss_kwh_low);
      expect(trueLossKwh, seen).toBeLessThanOrEqual(answer.soiling.loss_kwh_high);
      // Every cleaning of the truth within the estimated span that recovers at least 5 % is found as a
      // recovery, within 2 days (a cleaning a few days after a rain has little to recover: no event to see).
      const { from, to } = answer.soiling;
      const cleanings = truth
        .soilingResets(istanbulInstant(from, 0), istanbulInstant(to, 0))
        .filter((r) => r.kind === 'cleaning' && truth.soilingRatio(r.dayStartMs - DAY_MS / 2) < 0.95);
      expect(cleanings.length, seen).toBeGreaterThan(2);
      const found = answer.soiling.recoveries.map(dayNumber);
      for (const c of cleanings) {
        const day = dayNumber(new Date(c.dayStartMs + 12 * 3_600_000).toISOString().slice(0, 10));
        expect(
          found.some((f) => Math.abs(f - day) <= 2),
          `${seen}: cleaning of ${dateOfDay(day)} not found`,
        ).toBe(true);
      }
    });
  },
);

/** Days of the clean plant: a year, enough for the soiling method (it needs no pairs of years). */
const CLEAN_DAYS = 365;

/**
 * The same plant with no soiling at all (and no faults): whatever the method reports as soiling there is
 * the weather's and the model's day-to-day noise. It must not answer a soiling loss it cannot tell from
 * zero: either "not detected", or a loss whose 95 % interval holds 0.
 */
describe.skipIf(dialectUnderTest !== 'sqlite')(`performance of a clean plant (${dialectUnderTest})`, () => {
  let t: TestApp;
  let answer: PlantPerformanceAnswer;
  const now = istanbulInstant(dateOfDay(dayNumber(FIRST_DAY) + CLEAN_DAYS), 9 * 60);

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => now });
    const admin = await makeUser(t, { admin: true });
    const plant = await makePlantWithDay(t, admin, { name: 'SimClean' });
    await t.ctx.db
      .updateTable('plants')
      .set({ dc_capacity_kwp: 100, commissioning_date: FIRST_DAY })
      .where('id', '=', plant.tree.plantId)
      .execute();
    const definition = (await loadPlantTopology(t.ctx.db)).find(
      (p) => Number(p.plantId) === plant.tree.plantId,
    )!;
    const virtual = simulator.createVirtualPlant(definition, { seed: 7, faults: false, soiling: false });
    await storeSimulatedHistory(t, virtual, CLEAN_DAYS, plant.tree.plantId, now);
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    answer = res.json<PlantPerformanceAnswer>();
  }, 180_000);
  afterAll(() => t.close());

  it('reports no significant soiling', () => {
    const s = answer.soiling;
    const seen = JSON.stringify({ ...s, ratio_series: undefined });
    expect(s.status, seen).not.toBe('insufficient_data');
    if (s.status === 'ok') expect(s.loss_kwh_low, seen).toBeLessThanOrEqual(0);
  });
});
