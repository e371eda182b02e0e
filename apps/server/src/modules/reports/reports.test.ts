import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlarmsReportAnswer,
  FleetReportAnswer,
  InvertersReportAnswer,
  ProductionReportAnswer,
} from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser } from '../../test/org-fixtures';
import { parseCsv, pdfText, strictXlsxProblems } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { generatedAtText, pdfNumber } from './report-pdf';
import { makeReportPlant, pastDates, P0_KWP, type ReportPlantFixture } from './report-fixture';

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const commaNumber = (cell: string) => Number(cell.replace(',', '.'));

/**
 * Table headings left at the foot of a page: a heading line after which its page has no row of figures
 * (a number with a decimal comma, or "–"). The page's last line, its number, is left out.
 */
function orphanHeadings(pdf: Buffer, headings: readonly string[]): string[] {
  const out: string[] = [];
  pdfText(pdf)
    .split('\f')
    .forEach((page, i) => {
      const body = page
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, -1);
      body.forEach((line, j) => {
        if (headings.includes(line) && !body.slice(j + 1).some((l) => /\d,\d|–/.test(l)))
          out.push(`page ${i + 1}: ${line}`);
      });
    });
  return out;
}

/** "28.11.2026 23:14 (Europe/Istanbul)" for now and the minute before (the file was made a moment ago). */
const madeJustNow = (lang: 'tr_TR' | 'mk_MK', zone: string) =>
  [Date.now(), Date.now() - 60_000].map((ms) => generatedAtText(lang, new Date(ms).toISOString(), zone));

describe(`reports (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tr: ReportPlantFixture;
  let mk: ReportPlantFixture;
  const now = Date.now();
  const dates = pastDates(now, 2);
  const from = dates[0]!;
  const to = dates[1]!;

  const file = async (type: string, query: Record<string, string>) => {
    const res = await t.http.get(`/api/reports/${type}`, { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const both = () => ({ plant_ids: `${tr.tree.plantId},${mk.tree.plantId}`, from, to });

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
    // A budget for every month the test dates touch (two dates may straddle a month end).
    for (const month of new Set(dates.map((d) => d.slice(0, 7)))) {
      const [year, m] = month.split('-').map(Number);
      const res = await t.http.post(
        `/api/plants/${tr.tree.plantId}/budgets`,
        {
          year,
          months: [
            { month: m, energy_kwh: 300 * daysIn(year!, m!), irradiation_kwh_m2: 2 * daysIn(year!, m!) },
          ],
        },
        { token: admin.token },
      );
      expect(res.statusCode, res.body).toBe(200);
    }
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
    // 300 kWh and 2 kWh/m² a day; measured 1.6 kWh/m² a day.
    expect(a.totals.budget_kwh).toBeCloseTo(600, 6);
    expect(a.totals.budget_ratio).toBeCloseTo((2 * tr.dayEnergyKwh) / 600, 9);
    expect(a.totals.weather_corrected_budget_kwh).toBeCloseTo((600 * 2 * tr.dayIrradiationKwhM2) / 4, 6);
    expect(r.plants[1]!.totals.budget_kwh).toBeNull();
    expect(r.totals.budget_kwh).toBeNull();
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

  it('writes an XLSX whose numbers and dates are those of the JSON answer', async () => {
    const json = await get<ProductionReportAnswer>('/api/reports/production', { ...both(), lang: 'de_DE' });
    const res = await file('production', { ...both(), lang: 'de_DE', format: 'xlsx' });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="production-${from}_${to}.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    // The fixture's days hold two hours of data each: under the coverage threshold, so a warnings sheet follows.
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Übersicht', tr.name, mk.name, 'Warnungen']);
    const summary = workbook.worksheets[0]!;
    expect(summary.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(summary.getRow(1).getCell(4).value).toBe('Energie (kWh)');
    expect(summary.getColumn(1).width).toBeGreaterThan(10);
    const totalsRow = summary.getRow(json.plants.length + 2);
    expect(totalsRow.getCell(1).value).toBe('Summe');
    expect(totalsRow.getCell(4).value).toBeCloseTo(json.totals.energy_kwh!, 9);
    json.plants.forEach((p, i) => {
      const sheet = workbook.worksheets[i + 1]!;
      const header = sheet.getRow(1).values as string[];
      const colOf = (h: string) => header.indexOf(h);
      p.rows.forEach((row, j) => {
        const cells = sheet.getRow(j + 2);
        const date = cells.getCell(1);
        expect(date.value).toEqual(new Date(`${row.key}T00:00:00Z`));
        expect(date.numFmt).toBe('yyyy-mm-dd');
        expect(cells.getCell(colOf('Energie (kWh)')).value).toBeCloseTo(row.energy_kwh!, 9);
        expect(cells.getCell(colOf('Spezifischer Ertrag (kWh/kWp)')).value).toBeCloseTo(
          row.specific_yield_kwh_kwp!,
          9,
        );
        const prCell = cells.getCell(colOf('PR (%)'));
        expect(prCell.value).toBeCloseTo(row.pr!, 9);
        expect(prCell.numFmt).toBe('0.0%');
        const budget = cells.getCell(colOf('Budget (P50) (kWh)')).value;
        if (row.budget_kwh === null) expect(budget).toBeNull();
        else expect(budget).toBeCloseTo(row.budget_kwh, 9);
      });
    });
  });

  it('writes a CSV with the chosen delimiter and decimal comma, a BOM and formula protection', async () => {
    const json = await get<ProductionReportAnswer>('/api/reports/production', { ...both(), lang: 'tr_TR' });
    const res = await file('production', { ...both(), lang: 'tr_TR', format: 'csv' });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.body, ';');
    expect(rows[0]!.slice(0, 3)).toEqual(['Santral', 'Gün', 'Enerji (kWh)']);
    const prCol = rows[0]!.indexOf('PR (%)');
    const yieldCol = rows[0]!.indexOf('Özgül verim (kWh/kWp)');
    const lines = json.plants.flatMap((p) => p.rows.map((row) => ({ p, row })));
    // The rows, then the totals row, as the XLSX has one.
    expect(rows).toHaveLength(lines.length + 2);
    // Numbers as the XLSX displays them: energy with one decimal, specific yield two, PR one (as percent).
    const shown = (v: number, decimals: number) => {
      const r = Math.round(v * 10 ** decimals) / 10 ** decimals;
      return commaNumber(r.toFixed(decimals));
    };
    lines.forEach(({ p, row }, i) => {
      const cells = rows[i + 1]!;
      expect(cells[0]).toBe(p.name);
      expect(cells[1]).toBe(row.key);
      expect(cells[2]).toMatch(/^\d+,\d$/);
      expect(commaNumber(cells[2]!)).toBeCloseTo(shown(row.energy_kwh!, 1), 9);
      expect(cells[yieldCol]).toMatch(/^\d+,\d\d$/);
      expect(commaNumber(cells[yieldCol]!)).toBeCloseTo(shown(row.specific_yield_kwh_kwp!, 2), 9);
      expect(cells[prCol]).toMatch(/^\d+,\d$/);
      expect(commaNumber(cells[prCol]!)).toBeCloseTo(shown(row.pr! * 100, 1), 9);
    });
    const totals = rows.at(-1)!;
    expect(totals.slice(0, 2)).toEqual(['Toplam', '']);
    expect(commaNumber(totals[2]!)).toBeCloseTo(shown(json.totals.energy_kwh!, 1), 9);
    expect(commaNumber(totals[prCol]!)).toBeCloseTo(shown(json.totals.pr! * 100, 1), 9);
    const en = parseCsv((await file('production', { ...both(), lang: 'en_US', format: 'csv' })).body, ',');
    expect(en[0]![2]).toBe('Energy (kWh)');
    expect(en[1]![2]).toMatch(/^\d+\.\d$/);
    expect(Number(en[1]![2])).toBeCloseTo(shown(json.plants[0]!.rows[0]!.energy_kwh!, 1), 9);
    expect(en.at(-1)![0]).toBe('Total');
    const tab = parseCsv(
      (await file('production', { ...both(), lang: 'en_US', format: 'csv', delimiter: 'tab' })).body,
      '\t',
    );
    expect(commaNumber(tab[1]![2]!)).toBeCloseTo(shown(json.plants[0]!.rows[0]!.energy_kwh!, 1), 9);

    // The fleet and inverter CSVs close with their totals too, the fleet's energy being the JSON's.
    const fleetJson = await get<FleetReportAnswer>('/api/reports/fleet', { ...both(), lang: 'en_US' });
    const fleetRows = parseCsv((await file('fleet', { ...both(), lang: 'en_US', format: 'csv' })).body, ',');
    expect(fleetRows).toHaveLength(fleetJson.plants.length + 2);
    expect(fleetRows.at(-1)![0]).toBe('Total');
    expect(Number(fleetRows.at(-1)![fleetRows[0]!.indexOf('Energy (kWh)')])).toBeCloseTo(
      shown(fleetJson.totals.energy_kwh!, 1),
      9,
    );
    // Every plant: the demo's too, which have no data in the fixture's days.
    const invJson = await get<InvertersReportAnswer>('/api/reports/inverters', { from, to, lang: 'en_US' });
    const invRows = parseCsv((await file('inverters', { from, to, lang: 'en_US', format: 'csv' })).body, ',');
    expect(invRows).toHaveLength(invJson.inverters.length + 2);
    expect(invRows.at(-1)![0]).toBe('Total');
    expect(Number(invRows.at(-1)![invRows[0]!.indexOf('Energy (kWh)')])).toBeCloseTo(
      shown(
        invJson.inverters.reduce((a, i) => a + i.energy_kwh!, 0),
        1,
      ),
      9,
    );
    // Its specific yield is over the inverters that reported.
    const reported = invJson.inverters.filter((i) => i.energy_kwh !== null);
    expect(reported.length).toBeLessThan(invJson.inverters.length);
    expect(Number(invRows.at(-1)![invRows[0]!.indexOf('Specific yield (kWh/kWp)')])).toBeCloseTo(
      shown(
        reported.reduce((a, i) => a + i.energy_kwh!, 0) /
          reported.reduce((a, i) => a + i.dc_capacity_kwp!, 0),
        2,
      ),
      9,
    );

    // A plant named like a formula: quoted in CSV, a plain text cell with the Text format in XLSX.
    const evil = await makeTree(t, admin.token, 'Evil');
    await save(t, admin.token, `/api/plants/${evil.plantId}`, {
      field_id: evil.fieldId,
      name: '=1+1',
      time_zone: 'Europe/Istanbul',
    });
    const q = { plant_ids: String(evil.plantId), from, to, lang: 'en_US' };
    const fleetCsv = parseCsv((await file('fleet', { ...q, format: 'csv' })).body, ',');
    expect(fleetCsv[1]![0]).toBe("'=1+1");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await file('fleet', { ...q, format: 'xlsx' })).rawPayload as unknown as ArrayBuffer,
    );
    const cell = workbook.worksheets[0]!.getRow(2).getCell(1);
    expect(cell.value).toBe('=1+1');
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.numFmt).toBe('@');
  });

  it('writes a PDF in the chosen language with names, totals, charts and page numbers', async () => {
    const json = await get<ProductionReportAnswer>('/api/reports/production', { ...both(), lang: 'tr_TR' });
    const res = await file('production', { ...both(), lang: 'tr_TR', format: 'pdf' });
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Üretim raporu');
    expect(text).toContain(tr.name);
    expect(text).toContain(mk.name);
    expect(text).toContain(tr.tree.companyId ? 'Güneş Santralı İğdır Co' : '');
    expect(text).toContain(`${pdfNumber('tr_TR', json.totals.energy_kwh!, 0)} kWh`);
    expect(text).toContain(pdfNumber('tr_TR', json.plants[0]!.totals.energy_kwh!, 1));
    expect(text).toContain('Enerji, beklenen ve bütçe');
    expect(text).toMatch(/Sayfa 1 \/ \d+/);
    const mkText = pdfText(
      (await file('production', { ...both(), lang: 'mk_MK', format: 'pdf' })).rawPayload,
    );
    expect(mkText).toContain('Извештај за производство');
    expect(mkText).toContain('Централа Штип');
    expect(mkText).toMatch(/Страница 1 од \d+/);
  });

  it('keeps every table heading on the page of its first rows', async () => {
    // Two days and five: the summary table, then the plants' tables, at different places on the pages.
    for (const days of [2, 5]) {
      const start = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      const res = await file('production', {
        plant_ids: `${tr.tree.plantId},${mk.tree.plantId}`,
        from: start,
        to,
        lang: 'tr_TR',
        format: 'pdf',
      });
      expect(orphanHeadings(res.rawPayload, ['Özet', tr.name, mk.name]), `${days} days`).toEqual([]);
    }
  });

  it("writes the PDF's chart axes in the report's language, budgets only where there are, and when it was made in the plants' zone", async () => {
    // The demo's plants have budgets of about a million kWh a year: the axis has thousands to separate.
    const year = new Date().getUTCFullYear() - 1;
    const demoYear = { from: `${year}-01-01`, to: `${year}-12-31`, granularity: 'month' };
    const trText = pdfText(
      (await file('production', { ...demoYear, lang: 'tr_TR', format: 'pdf' })).rawPayload,
    );
    expect(trText).toMatch(/(^|\s)\d{3}\.000(\s|$)/m);
    expect(trText).not.toMatch(/\d,000(\s|$)/m);
    const enText = pdfText(
      (await file('production', { ...demoYear, lang: 'en_US', format: 'pdf' })).rawPayload,
    );
    expect(enText).toMatch(/(^|\s)\d{3},000(\s|$)/m);

    // The Macedonian fixture plant has no budget: no budget column, series or tile; the Turkish one has.
    const mkOnly = { plant_ids: String(mk.tree.plantId), from, to };
    const noBudget = pdfText(
      (await file('production', { ...mkOnly, lang: 'tr_TR', format: 'pdf' })).rawPayload,
    );
    expect(noBudget).not.toContain('Bütçe (P50)');
    expect(noBudget).not.toContain('Gerçekleşen / bütçe');
    const withBudget = pdfText(
      (
        await file('production', {
          plant_ids: String(tr.tree.plantId),
          from,
          to,
          lang: 'tr_TR',
          format: 'pdf',
        })
      ).rawPayload,
    );
    expect(withBudget).toContain('Bütçe (P50)');

    // Made at: in the plants' zone and named, never UTC. Štip (a demo plant) lies in Europe/Skopje.
    const fleet = await get<FleetReportAnswer>('/api/reports/fleet', { from, to });
    const stip = fleet.plants.find((p) => p.time_zone === 'Europe/Skopje')!;
    const stipText = pdfText(
      (await file('production', { plant_ids: String(stip.plant_id), from, to, lang: 'mk_MK', format: 'pdf' }))
        .rawPayload,
    );
    expect(madeJustNow('mk_MK', 'Europe/Skopje').some((s) => stipText.includes(`Создадено: ${s}`))).toBe(
      true,
    );
    expect(stipText).not.toContain('UTC');
    expect(madeJustNow('tr_TR', 'Europe/Istanbul').some((s) => noBudget.includes(`Oluşturulma: ${s}`))).toBe(
      true,
    );
    // The fleet report's plants lie in two zones; most of them (the first company's and the fixtures) in Istanbul.
    const fleetText = pdfText((await file('fleet', { from, to, lang: 'tr_TR', format: 'pdf' })).rawPayload);
    expect(madeJustNow('tr_TR', 'Europe/Istanbul').some((s) => fleetText.includes(`Oluşturulma: ${s}`))).toBe(
      true,
    );
  });

  it('answers alarm statistics and the inverter comparison in every format', async () => {
    const now = Date.now();
    const startedAt = Date.parse(`${from}T09:00:00Z`);
    for (const [i, approvedAfterMin] of [10, 30, null].entries()) {
      await t.ctx.db
        .insertInto('alarms')
        .values({
          plant_id: tr.tree.plantId,
          device_id: tr.inverters[i % 2]!,
          tag_id: null,
          source: 'device_status',
          rule_id: null,
          condition_key: `report-test-${i}`,
          active_key: null,
          priority_id: i + 1,
          message: 'alarms.msg.deviceCode',
          message_params: '{}',
          status_id: 1,
          started_at: startedAt,
          cleared_at: startedAt + 60_000,
          approved_at: approvedAfterMin === null ? null : startedAt + approvedAfterMin * 60_000,
          approved_by: null,
          rejected_at: null,
          rejected_by: null,
          fault_id: null,
        })
        .execute();
    }
    const alarms = await get<AlarmsReportAnswer>('/api/reports/alarms', { ...both(), lang: 'en_US' });
    expect(alarms.alarm_count).toBe(3);
    expect(alarms.by_priority.map((p) => p.count)).toEqual([1, 1, 1, 0]);
    expect(alarms.by_device_type).toEqual([{ device_type: 'inverter', count: 3 }]);
    expect(alarms.time_to_acknowledge).toEqual({
      count: 2,
      mean_minutes: 20,
      median_minutes: 20,
      max_minutes: 30,
    });
    expect(alarms.top_devices[0]).toMatchObject({
      device_id: tr.inverters[0],
      alarm_count: 2,
      plant_name: tr.name,
    });
    const inv = await get<InvertersReportAnswer>('/api/reports/inverters', { ...both(), lang: 'en_US' });
    const mine = inv.inverters.filter((i) => i.plant_id === mk.tree.plantId);
    expect(mine).toHaveLength(2);
    // INV-01 makes 3.5 kWh a step, INV-02 3: each has half of P0.
    expect(mine[0]!.energy_kwh).toBeCloseTo(2 * 24 * 3.5, 6);
    expect(mine[1]!.specific_yield_kwh_kwp).toBeCloseTo((2 * 24 * 3) / 60, 6);
    expect(mine[0]!.relative_to_plant_mean).toBeCloseTo(3.5 / 3.25, 9);
    for (const type of ['alarms', 'inverters', 'fleet']) {
      for (const format of ['xlsx', 'csv', 'pdf']) {
        const res = await file(type, { ...both(), lang: 'mk_MK', format });
        expect(res.rawPayload.length).toBeGreaterThan(100);
      }
    }
    const pdf = pdfText((await file('alarms', { ...both(), lang: 'de_DE', format: 'pdf' })).rawPayload);
    expect(pdf).toContain('Alarm- und Störungsstatistik');
    expect(now).toBeGreaterThan(startedAt);
  });

  it('writes every report type and granularity as an XLSX that a strict reader opens, every cell finite and typed', async () => {
    const cases = ['production', 'fleet', 'alarms', 'inverters'].flatMap((type) =>
      ['day', 'month', 'year'].map((granularity) => [type, granularity] as const),
    );
    for (const [type, granularity] of cases) {
      const res = await file(type, { ...both(), granularity, lang: 'tr_TR', format: 'xlsx' });
      expect(strictXlsxProblems(res.rawPayload), `${type} by ${granularity}`).toEqual([]);
    }
  });
});
