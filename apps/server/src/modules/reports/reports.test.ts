import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReportAnswer, ProductionReportAnswer } from '@solar/shared';
import { makeUser, pairs, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { makeReportPlant, pastDates, P0_KWP, type ReportPlantFixture } from './report-fixture';

describe(`reports (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tr: ReportPlantFixture;
  let mk: ReportPlantFixture;
  const now = Date.now();
  const dates = pastDates(now, 2);
  const from = dates[0]!;
  const to = dates[1]!;

  const get = async <T>(url: string, query: Record<string, string>, token = admin.token) => {
    const res = await t.http.get(url, { token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    tr = await makeReportPlant(t, admin, 'Güneş Santralı İğdır', dates);
    mk = await makeReportPlant(t, admin, 'Централа Штип', dates, 3);
  });
  afterAll(() => t.close());

  it('answers a production report with the KPI figures of each plant and the fleet', async () => {
    const r = await get<ProductionReportAnswer>('/api/reports/production', {
      plant_ids: `${tr.tree.plantId},${mk.tree.plantId}`,
      from,
      to,
      lang: 'tr_TR',
    });
    expect(r.plants.map((p) => p.name)).toEqual([tr.name, mk.name]);
    const a = r.plants[0]!;
    expect(a.rows.map((x) => x.key)).toEqual(dates);
    expect(a.rows[0]!.energy_kwh).toBeCloseTo(tr.dayEnergyKwh, 6);
    expect(a.totals.energy_kwh).toBeCloseTo(2 * tr.dayEnergyKwh, 6);
    expect(a.totals.specific_yield_kwh_kwp).toBeCloseTo((2 * tr.dayEnergyKwh) / P0_KWP, 6);
    expect(a.totals.irradiation_kwh_m2).toBeCloseTo(2 * tr.dayIrradiationKwhM2, 6);
    expect(a.totals.budget_kwh).toBeNull();
    expect(r.totals.energy_kwh).toBeCloseTo(2 * (tr.dayEnergyKwh + mk.dayEnergyKwh), 6);
  });

  it('answers a fleet summary', async () => {
    const r = await get<FleetReportAnswer>('/api/reports/fleet', { from, to, lang: 'en_US' });
    expect(r.totals.plant_count).toBeGreaterThanOrEqual(2);
    const row = r.plants.find((p) => p.plant_id === mk.tree.plantId)!;
    expect(row.energy_kwh).toBeCloseTo(2 * mk.dayEnergyKwh, 6);
  });

  it('refuses a report too large, another scope and no permission', async () => {
    const big = await t.http.get('/api/reports/production', {
      token: admin.token,
      query: { from: '2024-01-01', to: '2025-12-31' },
    });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ detail: 'errors.reportTooLarge' });
    const other = await makeUser(t, {
      companyId: tr.tree.companyId,
      permissions: pairs(['report'], ['view']),
    });
    const res = await t.http.get('/api/reports/production', {
      token: other.token,
      query: { plant_ids: String(mk.tree.plantId), from, to },
    });
    expect(res.statusCode).toBe(404);
    const own = await get<ProductionReportAnswer>('/api/reports/production', { from, to }, other.token);
    expect(own.plants.map((p) => p.plant_id)).toEqual([tr.tree.plantId]);
    const none = await makeUser(t, { permissions: pairs(['plant'], ['view']) });
    expect(
      (await t.http.get('/api/reports/fleet', { token: none.token, query: { from, to } })).statusCode,
    ).toBe(403);
  });
});
