import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EnergyAnswer, PlantKpisAnswer, PlantPowerAnswer, ProductionReportAnswer } from '@solar/shared';
import { makeUser, save, type TestUser } from '../../test/org-fixtures';
import { parseCsv, pdfText, strictXlsxProblems, xlsxValues } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { makeReportPlant, pastDates, type ReportPlantFixture } from './report-fixture';

const MIN = 60_000;
/** The meter sees 97 % of what the inverters count: cable, transformer and own use take the rest. */
const METER_SHARE = 0.97;
/** The fixture's step: 3.5 kWh per inverter and five minutes, 24 steps from 10:05 Istanbul time. */
const STEP_KWH = 3.5;
const STEPS = 24;

const utcOf = (date: string, hh: number, mm: number) =>
  Date.parse(`${date}T00:00:00Z`) - 3 * 3_600_000 + (hh * 60 + mm) * MIN;
const dayBefore = (date: string) =>
  new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const lastOfMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(y!, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/**
 * A plant's energy is one figure wherever it is shown: GET telemetry/energy answers the KPI engine's
 * (the meter's, here 97 % of the inverters'), as GET plants/{id}/kpis and the production report do, and
 * names its source; the inverters' sum is answered beside it under its own name.
 */
describe(`plant energy from one source (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: ReportPlantFixture;
  /** A plant without a meter: its energy is its inverters' sum. */
  let inverterOnly: ReportPlantFixture;
  const dates = pastDates(Date.now(), 2);
  const meterDayKwh = STEPS * 2 * STEP_KWH * METER_SHARE;

  const get = async <T>(url: string, query: Record<string, string>) => {
    const res = await t.http.get(url, { token: admin.token, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const energy = (period: string, from: string, to: string) =>
    get<EnergyAnswer>('/api/telemetry/energy', { plant_id: String(plant.tree.plantId), period, from, to });
  const kpis = (period: string, date: string) =>
    get<PlantKpisAnswer>(`/api/plants/${plant.tree.plantId}/kpis`, { period, date });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makeReportPlant(t, admin, 'Sayaçlı Santral', dates);
    inverterOnly = await makeReportPlant(t, admin, 'Централа Велес', dates);
    const meter = await save(t, admin.token, '/api/devices/0', {
      plant_id: plant.tree.plantId,
      name: 'SAYAÇ-1',
      type: 'meter',
      protocol: 'http',
      poll_interval_s: 300,
    });
    // In Wh, as many meters count: the plant's kWh must not depend on the counter's unit.
    const exported = await save(t, admin.token, '/api/signals/0', {
      device_id: meter.id,
      key: 'export_energy',
      name: 'Export',
      unit: 'Wh',
      is_counter: true,
    });
    const key = (await t.http.post(`/api/devices/${meter.id}/ingest-key`, {}, { token: admin.token })).json<{
      key: string;
    }>().key;
    const points = dates.flatMap((date, d) =>
      Array.from({ length: STEPS + 1 }, (_, i) => ({
        signal_id: exported.id,
        ts: utcOf(date, 10, 5 * i),
        value: 5e6 + (d * STEPS + i) * 2 * STEP_KWH * METER_SHARE * 1000,
      })),
    );
    const res = await t.http.post(
      '/api/telemetry',
      { points },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);
    // The days are marked for the KPI engine as the points are stored; wait until it has both.
    await vi.waitFor(async () => expect((await kpis('day', dates[1]!)).energy_source).toBe('meter'), {
      timeout: 20_000,
      interval: 200,
    });
  });
  afterAll(() => t.close());

  it('answers the KPI figure per day with its source, the inverter sum beside it, and null for a day without data', async () => {
    const before = dayBefore(dates[0]!);
    const answer = await energy('day', before, dates[1]!);
    expect(answer.items.map((i) => i.period)).toEqual([before, ...dates]);
    expect(answer.items[0]).toEqual({
      period: before,
      energy_kwh: null,
      source: 'none',
      inverter_sum_kwh: null,
    });
    for (const [i, date] of dates.entries()) {
      const item = answer.items[i + 1]!;
      const day = await kpis('day', date);
      expect(day.energy_source).toBe('meter');
      expect(day.energy_kwh).toBeCloseTo(meterDayKwh, 6);
      expect(item.source).toBe('meter');
      expect(item.energy_kwh).toBe(day.energy_kwh);
      expect(item.inverter_sum_kwh).toBeCloseTo(plant.dayEnergyKwh, 6);
    }
    const report = await get<ProductionReportAnswer>('/api/reports/production', {
      plant_ids: String(plant.tree.plantId),
      from: dates[0]!,
      to: dates[1]!,
      granularity: 'day',
    });
    expect(report.plants[0]!.rows.map((r) => [r.key, r.energy_kwh, r.energy_source])).toEqual(
      answer.items.slice(1).map((i) => [i.period, i.energy_kwh, i.source]),
    );
  });

  it('answers the same month as the KPI answer and the monthly report', async () => {
    for (const month of new Set(dates.map((d) => d.slice(0, 7)))) {
      const [item] = (await energy('month', `${month}-01`, lastOfMonth(month))).items;
      const kpi = await kpis('month', `${month}-01`);
      const report = await get<ProductionReportAnswer>('/api/reports/production', {
        plant_ids: String(plant.tree.plantId),
        from: `${month}-01`,
        to: lastOfMonth(month),
        granularity: 'month',
      });
      const inMonth = dates.filter((d) => d.startsWith(month)).length;
      expect(item).toMatchObject({ period: `${month}-01`, source: 'meter' });
      expect(item!.energy_kwh).toBeCloseTo(inMonth * meterDayKwh, 6);
      expect(item!.energy_kwh).toBe(kpi.energy_kwh);
      expect(kpi.energy_source).toBe('meter');
      expect(report.plants[0]!.totals).toMatchObject({
        energy_kwh: item!.energy_kwh,
        energy_source: 'meter',
      });
      expect(item!.inverter_sum_kwh).toBeCloseTo(inMonth * plant.dayEnergyKwh, 6);
    }
  });

  it("answers the meter's power beside the inverters' on the power chart, adding up to the day's energy", async () => {
    const power = await get<PlantPowerAnswer>(`/api/plants/${plant.tree.plantId}/power`, { date: dates[0]! });
    expect(power.energy_source).toBe('meter');
    const hours = power.interval_minutes / 60;
    const meterKwh = power.points.reduce((a, p) => a + (p.meter_power_kw ?? 0) * hours, 0);
    const inverterKwh = power.points.reduce((a, p) => a + (p.actual_power_kw ?? 0) * hours, 0);
    expect(meterKwh).toBeCloseTo(meterDayKwh, 6);
    expect(inverterKwh).toBeCloseTo(plant.dayEnergyKwh, 6);
    // Before the first reading there is no meter figure: missing, not zero.
    expect(power.points[0]!.meter_power_kw).toBeNull();
  });

  const sourceWords = {
    tr_TR: {
      header: 'Kaynak',
      meter: 'Sayaç',
      inverters: 'İnverter toplamı',
      both: 'Sayaç ve inverter toplamı',
      total: 'Toplam',
    },
    mk_MK: {
      header: 'Извор',
      meter: 'Броило',
      inverters: 'Збир на инвертори',
      both: 'Броило и збир на инвертори',
      total: 'Вкупно',
    },
  } as const;

  it.each(['tr_TR', 'mk_MK'] as const)(
    "names each plant's energy source in the production and fleet files (PDF, XLSX, CSV) in %s",
    async (lang) => {
      const query = {
        plant_ids: `${plant.tree.plantId},${inverterOnly.tree.plantId}`,
        from: dates[0]!,
        to: dates[1]!,
      };
      const file = async (type: string, format: string) => {
        const res = await t.http.get(`/api/reports/${type}`, {
          token: admin.token,
          query: { ...query, lang, format },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res;
      };
      const word = sourceWords[lang];
      const expected = new Map([
        [plant.name, word.meter],
        [inverterOnly.name, word.inverters],
      ]);
      for (const type of ['production', 'fleet']) {
        const where = `${type} ${lang}`;
        // CSV: every row of a plant names its source in the source column.
        const csv = parseCsv((await file(type, 'csv')).body, ';');
        const csvSource = csv[0]!.indexOf(word.header);
        expect(csvSource, where).toBeGreaterThan(0);
        for (const [name, source] of expected) {
          const rows = csv.filter((r) => r[0] === name);
          expect(rows.length, `${where} ${name}`).toBeGreaterThan(0);
          expect(new Set(rows.map((r) => r[csvSource])), `${where} ${name}`).toEqual(new Set([source]));
        }
        // The total of a meter plant and one without: both sources named.
        expect(csv.at(-1)![csvSource], where).toBe(word.both);

        // XLSX, read by openpyxl: the summary's plant rows, and each plant's own sheet where there is one.
        const xlsx = (await file(type, 'xlsx')).rawPayload;
        expect(strictXlsxProblems(xlsx), where).toEqual([]);
        const sheets = xlsxValues(xlsx);
        const [summary] = Object.values(sheets);
        const summarySource = summary![0]!.indexOf(word.header);
        expect(summarySource, where).toBeGreaterThan(0);
        for (const [name, source] of expected) {
          expect(summary!.find((r) => r[0] === name)?.[summarySource], `${where} ${name}`).toBe(source);
          const own = sheets[name];
          if (type === 'fleet') continue;
          const ownSource = own![0]!.indexOf(word.header);
          const days = own!.slice(1).filter((r) => r[0] !== word.total);
          expect(days.length, `${where} ${name}`).toBe(dates.length);
          for (const day of days) expect(day[ownSource], `${where} ${name}`).toBe(source);
        }

        // PDF: the summary table's row of each plant names its source.
        const pdfLines = pdfText((await file(type, 'pdf')).rawPayload).split('\n');
        for (const [name, source] of expected) {
          const row = pdfLines.findIndex((l) => l.trimStart().startsWith(name) && /\d/.test(l));
          expect(row, `${where} ${name}`).toBeGreaterThanOrEqual(0);
          // Words wider than the column wrap onto the row's next line, the first stays on the row's line.
          const [first, ...rest] = source.split(' ');
          expect(pdfLines[row], `${where} ${name}`).toContain(first);
          const rowText = pdfLines.slice(row, row + 2).join(' ');
          for (const w of rest) expect(rowText, `${where} ${name}`).toContain(w);
          if (source === word.meter)
            expect(pdfLines[row], `${where} ${name}`).not.toContain(word.inverters.split(' ')[0]);
        }
      }
    },
    // Six files, each read back by another program: more than the default 30 s on a busy machine.
    240_000,
  );
});
