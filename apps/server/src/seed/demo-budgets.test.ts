import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReportAnswer, ProductionReportAnswer } from '@solar/shared';
import { makeUser, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

describe(`the demo's P50 budgets (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  // Last year whole: the demo seeds last year, this year and next year.
  const year = new Date().getUTCFullYear() - 1;
  const from = `${year}-01-01`;
  const to = `${year}-12-31`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
  });
  afterAll(() => t.close());

  const report = async <T>(type: string, query: Record<string, string>) => {
    const res = await t.http.get(`/api/reports/${type}`, { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  it('gives every demo plant a budget for every month, so reports show budget figures', async () => {
    const r = await report<ProductionReportAnswer>('production', { from, to, granularity: 'month' });
    expect(r.plants).toHaveLength(6);
    for (const p of r.plants) {
      expect(p.rows.map((row) => row.key)).toHaveLength(12);
      const perKwp = p.rows.map((row) => row.budget_kwh! / p.dc_capacity_kwp!);
      // A budget per month, in the range of a south-facing plant at 37–42° N (kWh/kWp a month).
      for (const v of perKwp) expect(v).toBeGreaterThan(35);
      for (const v of perKwp) expect(v).toBeLessThan(220);
      // Summer above winter; a year of 1,100 to 1,700 kWh/kWp, as PVGIS gives for Anatolia and Macedonia.
      expect(perKwp[6]!).toBeGreaterThan(2 * perKwp[11]!);
      const yearly = p.totals.budget_kwh! / p.dc_capacity_kwp!;
      expect(yearly).toBeGreaterThan(1100);
      expect(yearly).toBeLessThan(1700);
      // The budget's own irradiation is there too, so the weather correction can be made.
      expect(p.totals.budget_irradiation_kwh_m2).toBeGreaterThan(yearly);
    }
    expect(r.totals.budget_kwh).toBeCloseTo(
      r.plants.reduce((a, p) => a + p.totals.budget_kwh!, 0),
      3,
    );
    const fleet = await report<FleetReportAnswer>('fleet', { from, to });
    expect(fleet.plants.every((p) => p.budget_kwh !== null && p.budget_kwh > 0)).toBe(true);
    expect(fleet.totals.budget_kwh).not.toBeNull();
  });

  it('seeds last, this and next year for the six demo plants and nothing else', async () => {
    const { n } = await t.ctx.db
      .selectFrom('plant_budgets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(6 * 3 * 12);
  });
});
