import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DegradationReportAnswer, PlantPerformanceAnswer } from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { parseCsv, pdfText, strictXlsxProblems } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { completeKpiDay, insertKpiDays, storedParamsKey } from '../../test/kpi-days';

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** A seeded standard normal draw (a 32-bit LCG and Box-Muller), so the days are the same on every run. */
function normalDraws(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state + 1) / 4_294_967_297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * The yearly degradation report over HTTP: a plant with three years of KPI days losing 1 %/yr, one with
 * 200 days (too few for a rate), and another company's plant; the report's figures are the performance
 * answer's, in JSON, CSV, XLSX and PDF, with "insufficient data" in words instead of a number.
 */
describe(`degradation report (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let long: Tree;
  let short: Tree;
  let other: Tree;
  const FIRST = '2022-01-01';
  /** Three years of days: 2022-01-01 … 2024-12-30. */
  const DAYS = 3 * 365;
  const year = { from: '2024-01-01', to: '2024-12-31' };

  /**
   * Finished, complete KPI days of a 100 kWp plant losing 1 %/yr with 1 % day-to-day noise, seasonal
   * irradiation; stored as the KPI engine stores them.
   */
  async function storeDegradingDays(plantId: number, first: string, count: number) {
    const key = await storedParamsKey(t, admin.token, plantId);
    const draw = normalDraws(4);
    const rows = Array.from({ length: count }, (_, i) => {
      const h = 5 + 1.5 * Math.sin((2 * Math.PI * i) / 365.25);
      const reference = 100 * h * 0.97;
      const expected = 0.86 * reference;
      const energy = expected * 0.99 ** (i / 365) * (1 + 0.01 * draw());
      return completeKpiDay(plantId, key, {
        date: dateOfDay(dayNumber(first) + i),
        energyKwh: energy,
        expectedEnergyKwh: expected,
        irradiationKwhM2: h,
        correctedReferenceKwh: reference,
      });
    });
    await insertKpiDays(t, rows);
  }

  const get = async (query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get('/api/reports/degradation', { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const both = () => ({ plant_ids: `${long.plantId},${short.plantId}`, ...year });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    long = await makeTree(t, admin.token, 'DegLong');
    short = await makeTree(t, admin.token, 'DegShort');
    other = await makeTree(t, admin.token, 'DegOther');
    await t.ctx.db
      .updateTable('plants')
      .set({ dc_capacity_kwp: 100, ac_capacity_kw: 90 })
      .where('id', 'in', [long.plantId, short.plantId])
      .execute();
    await storeDegradingDays(long.plantId, FIRST, DAYS);
    await storeDegradingDays(short.plantId, '2024-06-01', 200);
  }, 120_000);
  afterAll(() => t.close());

  it("answers each plant's rate with its interval and the data it rests on, the performance answer's", async () => {
    const r = (await get({ ...both(), lang: 'en_US' })).json<DegradationReportAnswer>();
    expect(r.type).toBe('degradation');
    const [a, s] = [long.plantId, short.plantId].map((id) => r.plants.find((p) => p.plant_id === id)!);
    if (a!.degradation.status !== 'ok') throw new Error(JSON.stringify(a!.degradation));
    const d = a!.degradation;
    expect(Math.abs(d.rate_pct_per_year + 1)).toBeLessThan(0.2);
    expect(d.ci_low_pct_per_year).toBeLessThan(d.rate_pct_per_year);
    expect(d.ci_high_pct_per_year).toBeGreaterThan(d.rate_pct_per_year);
    expect(d.block_length).toBeGreaterThanOrEqual(1);
    expect(d.from).toBe(FIRST);
    expect(d.to).toBe(dateOfDay(dayNumber(FIRST) + DAYS - 1));
    // The history ends before today, so the performance answer rests on the same days: the same figures.
    const perf = await t.http.get(`/api/plants/${long.plantId}/performance`, { token: admin.token });
    expect(perf.json<PlantPerformanceAnswer>().degradation.plant).toEqual(d);
    expect(a!.inverters).toEqual(perf.json<PlantPerformanceAnswer>().degradation.inverters);
    // The year's months: every day of 2024 but the 31 December (past the history) is usable.
    expect(a!.months.map((m) => m.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`),
    );
    expect(a!.months.map((m) => m.usable_days)).toEqual([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 30]);
    for (const m of a!.months) expect(m.normalized_energy).toBeGreaterThan(0.8);
    // Late in the year the output is lower than early: the decline shows in the series.
    expect(a!.months[11]!.normalized_energy!).toBeLessThan(a!.months[0]!.normalized_energy!);
    expect(s!.degradation).toEqual({
      status: 'insufficient_data',
      from: '2024-06-01',
      to: dateOfDay(dayNumber('2024-06-01') + 199),
      span_days: 199,
      months_found: 6,
      months_needed: 24,
    });
    expect(s!.months.slice(0, 5).map((m) => m.usable_days)).toEqual([0, 0, 0, 0, 0]);
    expect(s!.months[4]!.normalized_energy).toBeNull();
  });

  it('writes CSV, XLSX and PDF, saying "insufficient data" instead of a number', async () => {
    const csv = (await get({ ...both(), lang: 'en_US', format: 'csv' })).body;
    const rows = parseCsv(csv, ',');
    expect(rows[0]).toContain('Degradation rate (%/a)');
    const shortRow = rows.find((row) => row[0] === 'DegShort Plant')!;
    expect(shortRow[1]).toBe('Whole plant');
    expect(shortRow[2]).toBe('');
    // The note holds a comma, so the CSV quotes it (parseCsv does not read quoted delimiters).
    expect(csv).toContain('"insufficient data (needs 730 days of clean data, has 199 days)"');
    const longRow = rows.find((row) => row[0] === 'DegLong Plant')!;
    expect(Math.abs(Number(longRow[2]) + 1)).toBeLessThan(0.2);
    expect(longRow.at(-1)).toBe('');

    const xlsx = await get({ ...both(), lang: 'tr_TR', format: 'xlsx' });
    expect(strictXlsxProblems(xlsx.rawPayload)).toEqual([]);

    const pdf = pdfText((await get({ ...both(), lang: 'de_DE', format: 'pdf' })).rawPayload);
    expect(pdf).toContain('Jährlicher Degradationsbericht');
    expect(pdf).toContain('zu wenig Daten (benötigt 730 Tage saubere Daten, vorhanden 199 Tage)');
    expect(pdf).toContain('Normierte Energie — DegLong Plant');
    const mk = pdfText((await get({ ...both(), lang: 'mk_MK', format: 'pdf' })).rawPayload);
    expect(mk).toContain('Годишен извештај за деградација');
    // Four files, each computing three years of two plants: about 30 s on a loaded machine.
  }, 180_000);

  it('keeps to the caller: 401 without a token, 403 without the report permission, 404 for another scope', async () => {
    expect((await t.http.get('/api/reports/degradation', { query: year })).statusCode).toBe(401);
    const noReport = await makeUser(t, { permissions: pairs(['plant'], ['view']) });
    expect(
      (await t.http.get('/api/reports/degradation', { token: noReport.token, query: year })).statusCode,
    ).toBe(403);
    const reader = await makeUser(t, {
      companyId: long.companyId,
      permissions: pairs(['report'], ['view']),
    });
    const foreign = await t.http.get('/api/reports/degradation', {
      token: reader.token,
      query: { plant_ids: String(other.plantId), ...year },
    });
    expect(foreign.statusCode).toBe(404);
    const own = (await get(year, reader.token)).json<DegradationReportAnswer>();
    expect(own.plants.map((p) => p.plant_id)).toEqual([long.plantId]);
    // It reads five years per plant: 44 plants are more plant-days than a report may read.
    const many = await t.http.get('/api/reports/degradation', {
      token: admin.token,
      query: { plant_ids: Array.from({ length: 44 }, (_, i) => i + 1).join(','), ...year },
    });
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ detail: 'errors.reportTooLarge' });
  });
});
