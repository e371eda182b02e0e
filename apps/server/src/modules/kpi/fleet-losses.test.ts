import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { translate } from '@solar/i18n';
import type { FleetLossesAnswer, FleetLossItem, FleetReportAnswer, PlantKpisAnswer } from '@solar/shared';
import { LOSS_KINDS } from '@solar/shared';
import { makeTree, makeUser, pairs, type TestUser, type Tree } from '../../test/org-fixtures';
import { istanbulDate, makePlantWithDay, MORNING, PLANT_DAY_KWP } from '../../test/plant-day';
import { parseCsv, pdfText, strictXlsxProblems } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY = 86_400_000;

// Each plant (test/plant-day.ts): P0 120 kWp, two 50 kW inverters, the PVWatts defaults (γ −0.0037 /K,
// 14 % losses), a morning of 24 five-minute intervals at 800 W/m² and 45 °C.
const P0 = PLANT_DAY_KWP;
const POA = MORNING.poaWm2;
const T_MOD = MORNING.moduleTemperatureC;
const INTERVALS = MORNING.intervals;
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

/** The fleet loss view's columns of one plant's period, as the view answers them… */
const viewColumns = (i: FleetLossItem) => ({
  expected_energy_kwh: i.expected_energy_kwh,
  energy_kwh: i.energy_kwh,
  losses: i.losses,
  availability: i.availability.time_based,
  pr: i.pr,
  coverage: i.coverage,
  top_loss: i.top_loss,
});
/** …and as the fleet report answers them. */
const reportColumns = (p: FleetReportAnswer['plants'][number]) => ({
  expected_energy_kwh: p.expected_energy_kwh,
  energy_kwh: p.energy_kwh,
  losses: p.losses,
  availability: p.availability,
  pr: p.pr,
  coverage: p.coverage,
  top_loss: p.top_loss,
});

/** The last day of the month holding `date` (YYYY-MM-DD). */
const monthEnd = (date: string) => {
  const [y, m] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m, 0)).toISOString().slice(0, 10);
};

describe(`fleet losses (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let lossy: Tree;
  let strong: Tree;
  const date = istanbulDate(Date.now() - 3 * DAY);

  /** A plant with two inverters and a weather station, and one day of data: INV-B stops after `inv2Steps`. */
  const plantDay = async (name: string, stepKwh: number, inv2Steps: number) =>
    (
      await makePlantWithDay(t, admin, {
        name,
        inverterNames: ['INV-A', 'INV-B'],
        days: [{ date, stepKwh: [stepKwh, stepKwh], inv2Steps }],
      })
    ).tree;

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
    // Lossy: 3.5 kWh per inverter and step, INV-B down for the second half of the day.
    lossy = await plantDay('Lossy', 3.5, INTERVALS / 2);
    // Strong: 4 kWh per inverter and step all day, more than the model expects.
    strong = await plantDay('Strong', 4, INTERVALS);
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

  it("answers the fleet report's loss columns with the view's figures for the same plants and period", async () => {
    const plantIds = `${lossy.plantId},${strong.plantId}`;
    const periods = [
      { period: 'day', from: date, to: date },
      { period: 'month', from: `${date.slice(0, 7)}-01`, to: monthEnd(date) },
    ];
    for (const { period, from, to } of periods) {
      const view = await losses(admin.token, { period, date });
      const res = await t.http.get('/api/reports/fleet', {
        token: admin.token,
        query: { plant_ids: plantIds, from, to, lang: 'en_US' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json<FleetReportAnswer>();
      for (const tree of [lossy, strong]) {
        const item = view.items.find((i) => i.plant_id === tree.plantId)!;
        const row = report.plants.find((p) => p.plant_id === tree.plantId)!;
        expect(reportColumns(row), `${period} of plant ${tree.plantId}`).toEqual(viewColumns(item));
      }
    }
  });

  it('writes the loss columns into the XLSX, CSV and PDF, energy above expectation in words and no data left empty', async () => {
    // A plant without any device: its period has no data, so its expectation and losses are unknown.
    const empty = await makeTree(t, admin.token, 'Empty');
    const query = {
      plant_ids: `${lossy.plantId},${strong.plantId},${empty.plantId}`,
      from: date,
      to: date,
      lang: 'en_US',
    };
    const get = async (format: string, lang = 'en_US') => {
      const res = await t.http.get('/api/reports/fleet', {
        token: admin.token,
        query: { ...query, lang, format },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    const json = (await get('json')).json<FleetReportAnswer>();
    const a = json.plants.find((p) => p.plant_id === lossy.plantId)!;
    const b = json.plants.find((p) => p.plant_id === strong.plantId)!;
    const c = json.plants.find((p) => p.plant_id === empty.plantId)!;
    expect(a.losses.total_kwh).toBeGreaterThan(0);
    expect(b.losses.total_kwh).toBeLessThan(0);
    expect(b.losses.underperformance_kwh).toBeLessThan(0);
    // The total, then each kind under its English header (the en_US locale's reportFile.loss.*).
    const lossKeys = ['total', ...LOSS_KINDS] as const;
    const lossHeaders = lossKeys.map((k) => `${translate('en_US', `reportFile.loss.${k}`)} (kWh)`);
    const lossOf = (p: FleetReportAnswer['plants'][number], header: string) =>
      p.losses[`${lossKeys[lossHeaders.indexOf(header)]!}_kwh`];

    // XLSX: the view's figures as typed numbers; a negative loss stays a signed number that its format
    // shows in words, so a sum over the column is still expected − actual.
    const xlsx = (await get('xlsx')).rawPayload;
    expect(strictXlsxProblems(xlsx)).toEqual([]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = sheet.getRow(1).values as string[];
    const colOf = (h: string) => {
      const i = header.indexOf(h);
      expect(i, h).toBeGreaterThan(0);
      return i;
    };
    const rowOf = (name: string) => {
      for (let r = 2; r <= sheet.rowCount; r++)
        if (sheet.getRow(r).getCell(1).value === name) return sheet.getRow(r);
      throw new Error(`no row ${name}`);
    };
    for (const p of [a, b]) {
      const row = rowOf(p.name);
      expect(row.getCell(colOf('Expected energy (kWh)')).value).toBe(p.expected_energy_kwh);
      expect(row.getCell(colOf('Energy (kWh)')).value).toBe(p.energy_kwh);
      for (const h of lossHeaders) expect(row.getCell(colOf(h)).value, `${p.name} ${h}`).toBe(lossOf(p, h));
      expect(row.getCell(colOf('Availability (%)')).value).toBe(p.availability);
      expect(row.getCell(colOf('PR (%)')).value).toBe(p.pr);
      expect(row.getCell(colOf('Data coverage (%)')).value).toBe(p.coverage);
    }
    expect(rowOf(a.name).getCell(colOf('Largest loss')).value).toBe('Downtime');
    expect(rowOf(b.name).getCell(colOf('Largest loss')).value).toBe('None');
    const aboveCell = rowOf(b.name).getCell(colOf('Total loss (kWh)'));
    expect(aboveCell.numFmt).toBe('#,##0.0;#,##0.0" above expectation"');
    const noData = rowOf(c.name);
    expect(noData.getCell(colOf('Expected energy (kWh)')).value).toBeNull();
    for (const h of lossHeaders) expect(noData.getCell(colOf(h)).value, h).toBeNull();
    expect(noData.getCell(colOf('Largest loss')).value).toBe('No data');

    // CSV: rounded as the XLSX shows them, the negative loss in the same words, never "-39.1".
    const csv = parseCsv((await get('csv')).body, ',');
    const csvCol = (h: string) => csv[0]!.indexOf(h);
    const csvRow = (name: string) => csv.find((r) => r[0] === name)!;
    // A loss as the XLSX shows it: one decimal, or below zero the energy above expectation in words.
    const shownLoss = (v: number) =>
      v < 0 && (-v).toFixed(1) !== '0.0' ? `${(-v).toFixed(1)} above expectation` : v.toFixed(1);
    for (const p of [a, b])
      for (const h of lossHeaders)
        expect(csvRow(p.name)[csvCol(h)], `${p.name} ${h}`).toBe(shownLoss(lossOf(p, h)));
    expect(csvRow(a.name)[csvCol('Expected energy (kWh)')]).toBe(a.expected_energy_kwh.toFixed(1));
    expect(csvRow(a.name)[csvCol('PR (%)')]).toBe((a.pr! * 100).toFixed(1));
    expect(csvRow(b.name)[csvCol('Total loss (kWh)')]).toMatch(/^\d+\.\d above expectation$/);
    expect(csvRow(c.name)[csvCol('Total loss (kWh)')]).toBe('');
    const trCsv = parseCsv((await get('csv', 'tr_TR')).body, ';');
    const trRow = trCsv.find((r) => r[0] === b.name)!;
    expect(trRow[trCsv[0]!.indexOf('Toplam kayıp (kWh)')]).toBe(
      `Beklentinin ${(-b.losses.total_kwh).toFixed(1).replace('.', ',')} üstünde`,
    );

    // PDF: the same words, no negative loss.
    const pdf = pdfText((await get('pdf')).rawPayload);
    const above = (-b.losses.total_kwh).toFixed(1);
    expect(pdf).toMatch(new RegExp(`${above.replace('.', '\\.')}\\s+above`));
    expect(pdf).toContain('expectation');
    expect(pdf).not.toContain(`-${above}`);
    expect(pdf).toContain('Largest loss');
  });
});
