/**
 * The demo's long history, as `npm start` writes it on a first start (SIMULATOR_LONG_HISTORY_DAYS): one
 * plant's history reaches back to its commissioning, the days before the raw ones as the coarse model's
 * hourly rollups (docs/simulator.md), and its performance answer judges a degradation rate and soiling
 * from them. On SQLite only: the file took 106 s there and 290 s on PostgreSQL on the loaded two-core
 * machine (both passed), most of it the first start and the first computation of 1,349 KPI days; the
 * hourly rows go through the store's one upsertRollups, which the store's own tests run on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantPerformanceAnswer } from '@solar/shared';
import type { PlantTruth } from '@solar/simulator';
import { DEMO_LONG_HISTORY_PLANT } from '../background';
import { makeUser, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { readRawSeries, readRollups } from '../telemetry-store/queries';

const DAY_MS = 86_400_000;
/** The end of the history: a fixed instant, so the simulated weather and faults are the same every run. */
const END_MS = Date.UTC(2026, 8, 20, 14, 0, 0);
/** Two raw days: the demo's data faults (3 to 20 days before the end) then fall before them, left out. */
const BACKFILL_DAYS = 2;
/** As the demo's default (config.ts): four years, cut at the plant's commissioning (2023-03-20). */
const LONG_HISTORY_DAYS = 1_460;
const THREE_YEARS_DAYS = 3 * 365;
/**
 * The plant's year-on-year rate may differ from the truth (the inverters' mean rate, as a year-on-year
 * ratio) by this much, %/yr: the bound simulator-truth.test.ts holds on 25 months of 5-minute data.
 */
const RATE_TOLERANCE_PCT = 0.2;

describe.skipIf(dialectUnderTest !== 'sqlite')(`the demo's long-history plant (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: { id: number; name: string };
  let truth: PlantTruth;
  /** Each inverter's total_energy signal. */
  let counters: number[];
  let irradiance: number;

  beforeAll(async () => {
    t = await createTestApp(
      { simulator: { enabled: true, backfillDays: BACKFILL_DAYS, longHistoryDays: LONG_HISTORY_DAYS } },
      { now: () => END_MS, alarmEngine: { tickMs: 3_600_000 } },
    );
    await t.background()!.alarms;
    admin = await makeUser(t, { admin: true });
    const plants = await t.ctx.db.selectFrom('plants').select(['id', 'name']).orderBy('id').execute();
    plant = plants[DEMO_LONG_HISTORY_PLANT]!;
    truth = t.background()!.simulator!.truth()[DEMO_LONG_HISTORY_PLANT]!;
    const signals = await t.ctx.db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .select(['signals.id', 'signals.key', 'devices.type'])
      .where('devices.plant_id', '=', plant.id)
      .execute();
    counters = signals.filter((s) => s.type === 'inverter' && s.key === 'total_energy').map((s) => s.id);
    irradiance = signals.find((s) => s.type === 'weather_station' && s.key === 'irradiance')!.id;
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is Serik GES-1, with daily rollups of every inverter from its commissioning, over three years', async () => {
    expect(plant.name).toBe('Serik GES-1');
    expect(counters).toHaveLength(4);
    for (const id of counters) {
      const days = await readRollups(t.ctx.db, '1d', [id], 0, END_MS);
      const producing = days.filter((d) => (d.delta ?? 0) > 0);
      expect(days.length, `signal ${id}`).toBeGreaterThanOrEqual(THREE_YEARS_DAYS);
      expect(producing.length, `signal ${id}`).toBeGreaterThan(0.95 * THREE_YEARS_DAYS);
      // The first day is the commissioning's (2023-03-20, local midnight at UTC+3).
      expect(days[0]!.bucket).toBe(Date.UTC(2023, 2, 19, 21));
    }
  });

  /** Where the raw readings start: the first raw reading of the plant's first inverter counter. */
  const seamOf = async () => {
    const raw = await readRawSeries(t.ctx.db, t.ctx.dialect, [counters[0]!], 0, END_MS);
    return raw.get(counters[0]!)![0]![0];
  };

  it("the first raw reading of each counter continues the hourly history's sum since commissioning", async () => {
    const seam = await seamOf();
    // The raw readings start at a local midnight (UTC+3), one and a half days before the end.
    expect(seam).toBe(Date.UTC(2026, 8, 17, 21));
    for (const id of counters) {
      const hours = await readRollups(t.ctx.db, '1h', [id], 0, seam);
      const [firstTs, firstValue] = (await readRawSeries(t.ctx.db, t.ctx.dialect, [id], 0, END_MS)).get(
        id,
      )![0]!;
      expect(firstTs).toBe(seam);
      // The hourly history ends with the hour before the raw readings start.
      expect(hours.at(-1)!.bucket).toBe(seam - 3_600_000);
      // From the factory test's 1 kWh, the hours' deltas add up to the counter the raw readings go on from.
      const sum = hours.reduce((a, h) => a + (h.delta ?? 0), 0);
      expect(hours[0]!.last).toBeLessThan(2);
      expect(firstValue).toBeCloseTo(hours[0]!.last + sum, 1);
      expect(firstValue).toBeCloseTo(hours.at(-1)!.last, 3);
    }
  });

  it("the seam day's yield per irradiation matches the hourly days before it within their spread", async () => {
    const seamDay = await seamOf();
    const days = await readRollups(
      t.ctx.db,
      '1d',
      [...counters, irradiance],
      seamDay - 14 * DAY_MS,
      seamDay + DAY_MS,
    );
    const ratioOf = (bucket: number) => {
      const of = days.filter((d) => d.bucket === bucket);
      const kwh = of.filter((d) => d.signalId !== irradiance).reduce((a, d) => a + (d.delta ?? 0), 0);
      const poa = of.find((d) => d.signalId === irradiance)!;
      // Irradiation in kWh/m²: the hourly days hold one mean an hour, the raw days a reading every 5 minutes.
      const kwhM2 = ((poa.sum / poa.count) * 24) / 1000;
      return kwh / kwhM2;
    };
    const before = [...new Set(days.map((d) => d.bucket))].filter((b) => b < seamDay).map(ratioOf);
    const seam = ratioOf(seamDay);
    const mean = before.reduce((a, b) => a + b, 0) / before.length;
    const sd = Math.sqrt(before.reduce((a, b) => a + (b - mean) ** 2, 0) / before.length);
    const seen = `seam ${seam.toFixed(1)} against ${before.map((r) => r.toFixed(1)).join(' ')} kWh per kWh/m²`;
    expect(before).toHaveLength(14);
    expect(Math.abs(seam - mean), seen).toBeLessThan(Math.max(3 * sd, 0.03 * mean));
  });

  it('the performance answer judges a degradation rate near the truth, and the soiling', async () => {
    const res = await t.http.get(`/api/plants/${plant.id}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<PlantPerformanceAnswer>();
    const d = answer.degradation.plant;
    if (d.status !== 'ok') throw new Error(JSON.stringify(d));
    const rates = Object.values(truth.degradationPerYear);
    const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
    const truePct = (100 * rate) / (1 + rate);
    const seen = `${d.rate_pct_per_year.toFixed(3)} [${d.ci_low_pct_per_year.toFixed(3)}, ${d.ci_high_pct_per_year.toFixed(3)}] against ${truePct.toFixed(3)} %/yr, ${d.pairs} pairs`;
    expect(Math.abs(d.rate_pct_per_year - truePct), seen).toBeLessThan(RATE_TOLERANCE_PCT);
    for (const inverter of answer.degradation.inverters) expect(inverter.result.status).toBe('ok');
    expect(answer.soiling.status, JSON.stringify({ ...answer.soiling, ratio_series: undefined })).toBe('ok');
  }, 300_000);
});
