import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantBudgetAnswer, PlantKpisAnswer } from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');

describe(`budgets (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let a: Tree;
  let b: Tree;
  let other: Tree;

  const stored = async () =>
    (await t.ctx.db.selectFrom('plant_budgets').select(['plant_id', 'year', 'month', 'energy_kwh']).execute())
      .length;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    a = await makeTree(t, admin.token, 'BudgetA');
    b = await makeTree(t, admin.token, 'BudgetB');
    other = await makeTree(t, admin.token, 'BudgetOther');
  });
  afterAll(() => t.close());

  it('saves a year on the plant form, replaces it, and shows it in the KPIs against the actual', async () => {
    const months = Array.from({ length: 12 }, (_, i) => ({
      month: i + 1,
      energy_kwh: 1000 * (i + 1),
      irradiation_kwh_m2: i === 0 ? null : 100 + i,
    }));
    let res = await t.http.post(
      `/api/plants/${a.plantId}/budgets`,
      { year: 2025, months },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    res = await t.http.post(
      `/api/plants/${a.plantId}/budgets`,
      { year: 2025, months: months.slice(1) },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const got = await t.http.get(`/api/plants/${a.plantId}/budgets`, {
      token: admin.token,
      query: { year: '2025' },
    });
    expect(got.json<PlantBudgetAnswer>().months.map((m) => m.month)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    const kpis = await t.http.get(`/api/plants/${a.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'year', date: '2025-06-15' },
    });
    expect(kpis.statusCode, kpis.body).toBe(200);
    const k = kpis.json<PlantKpisAnswer>();
    // January has no budget: the year has none, March has its own.
    expect(k.budget.budget_kwh).toBeNull();
    const march = k.rows.find((r) => r.key === '2025-03')!;
    expect(march.budget.budget_kwh).toBeCloseTo(3000, 9);
    expect(march.budget.budget_irradiation_kwh_m2).toBeCloseTo(102, 9);
    // Nothing measured: the weather-corrected budget is 0 × budget / irradiation.
    expect(march.budget.weather_corrected_budget_kwh).toBeCloseTo(0, 9);
    const day = await t.http.get(`/api/plants/${a.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: '2025-03-10' },
    });
    expect(day.json<PlantKpisAnswer>().budget.budget_kwh).toBeCloseTo(3000 / 31, 9);
  });

  it('refuses a bad body, another scope and a user without plant_management update', async () => {
    const bad = await t.http.post(
      `/api/plants/${a.plantId}/budgets`,
      { year: 2025, months: [{ month: 13, energy_kwh: -1, irradiation_kwh_m2: null }] },
      { token: admin.token },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors).toMatchObject({
      'months.0.month': ['validation.outOfRange'],
      'months.0.energy_kwh': ['validation.outOfRange'],
    });
    const narrow = await makeUser(t, { companyId: a.companyId, permissions: pairs(['plant_management']) });
    const hidden = await t.http.get(`/api/plants/${other.plantId}/budgets`, {
      token: narrow.token,
      query: { year: '2025' },
    });
    expect(hidden.statusCode).toBe(404);
    const viewer = await makeUser(t, {
      companyId: a.companyId,
      permissions: pairs(['plant_management'], ['view']),
    });
    const refused = await t.http.post(
      `/api/plants/${a.plantId}/budgets`,
      { year: 2025, months: [] },
      { token: viewer.token },
    );
    expect(refused.statusCode).toBe(403);
  });

  it('imports a good CSV for many plants (semicolon, decimal comma) and an XLSX', async () => {
    await t.ctx.db.deleteFrom('plant_budgets').execute();
    const csv = [
      'plant_id;year;month;energy_kwh;irradiation_kwh_m2',
      `${a.plantId};2026;1;1234,5;55,5`,
      `${a.plantId};2026;2;2000;`,
      '',
      `${b.plantId};2026;1;"3000";60`,
    ].join('\r\n');
    const res = await t.http.post(
      '/api/budgets/import',
      { format: 'csv', content_base64: b64(`\uFEFF${csv}`) },
      { token: admin.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 3, plants: 2 });
    const jan = await t.http.get(`/api/plants/${a.plantId}/budgets`, {
      token: admin.token,
      query: { year: '2026' },
    });
    expect(jan.json<PlantBudgetAnswer>().months).toEqual([
      { month: 1, energy_kwh: 1234.5, irradiation_kwh_m2: 55.5 },
      { month: 2, energy_kwh: 2000, irradiation_kwh_m2: null },
    ]);

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('budget');
    sheet.addRow(['plant_id', 'year', 'month', 'energy_kwh', 'irradiation_kwh_m2']);
    sheet.addRow([b.plantId, 2026, 2, 4100.25, 70]);
    sheet.addRow([b.plantId, 2026, 3, 5100, null]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const res2 = await t.http.post(
      '/api/budgets/import',
      { format: 'xlsx', content_base64: b64(xlsx) },
      { token: admin.token },
    );
    expect(res2.statusCode, res2.body).toBe(200);
    expect(res2.json()).toEqual({ imported: 2, plants: 1 });
    expect(await stored()).toBe(5);
  });

  it('refuses a file with one bad row, naming its line, and imports nothing', async () => {
    const before = await stored();
    const csv = [
      'plant_id,year,month,energy_kwh,irradiation_kwh_m2',
      `${a.plantId},2027,1,1000,50`,
      `${a.plantId},2027,2,1000,50`,
      `${a.plantId},2027,13,abc,50`,
      `${b.plantId},2027,1,1000,50`,
    ].join('\n');
    const res = await t.http.post(
      '/api/budgets/import',
      { format: 'csv', content_base64: b64(csv) },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      detail: 'errors.budgetImportInvalid',
      errors: {
        'line 4: month': ['validation.outOfRange'],
        'line 4: energy_kwh': ['validation.invalidNumber'],
      },
    });
    expect(Object.keys(res.json<{ errors: object }>().errors)).toHaveLength(2);
    expect(await stored()).toBe(before);

    // A plant out of the caller's scope is a bad row too, and reads as unknown.
    const narrow = await makeUser(t, { companyId: a.companyId, permissions: pairs(['plant_management']) });
    const scoped = await t.http.post(
      '/api/budgets/import',
      {
        format: 'csv',
        content_base64: b64(
          `plant_id;year;month;energy_kwh\n${a.plantId};2027;1;5\n${other.plantId};2027;1;5\n`,
        ),
      },
      { token: narrow.token },
    );
    expect(scoped.statusCode).toBe(400);
    expect(scoped.json()).toMatchObject({ errors: { 'line 3: plant_id': ['validation.invalidValue'] } });
    expect(await stored()).toBe(before);
  });
});
