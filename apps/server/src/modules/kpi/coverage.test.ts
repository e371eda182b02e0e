import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isLowCoverage,
  KPI_COVERAGE_WARNING_BELOW,
  type PlantKpisAnswer,
  type ProductionReportAnswer,
} from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import {
  istanbulDate,
  istanbulInstant as utcOf,
  makePlantWithDay,
  type TelemetryPoint,
} from '../../test/plant-day';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/** The month before this one in Istanbul (YYYY-MM), its number of days, and three of its dates. */
function lastMonth(now: number) {
  const today = istanbulDate(now);
  const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  first.setUTCMonth(first.getUTCMonth() - 1);
  const month = first.toISOString().slice(0, 7);
  const days = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { month, days, dates: [`${month}-03`, `${month}-04`, `${month}-05`] };
}

/**
 * A month of which only three days have data, every one of them complete (a sample every 5 minutes, the
 * devices' poll interval, all day): its figures are those of three good days, so its availability is
 * 100 %, and only the coverage tells that 28 days are missing.
 */
describe(`KPI coverage (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  const now = Date.now();
  const { month, days, dates } = lastMonth(now);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    const plant = await makePlantWithDay(t, admin, { name: 'Coverage' });
    tree = plant.tree;
    // INV-01's AC power signal of makeTree is dropped: every active signal of a device counts for it.
    await save(t, admin.token, `/api/signals/${tree.signalId}`, {
      device_id: tree.deviceId,
      key: 'ac_power',
      name: 'AC Power',
      is_active: false,
    });
    const { totals, poa, moduleTemperature: tmod } = plant.signals;

    // Every 5 minutes all day; between 08:00 and 16:00 800 W/m² and 3 kWh per inverter and interval.
    const points: TelemetryPoint[] = [];
    let counter = 1000;
    for (const date of dates) {
      for (let m = 0; m < 24 * 60; m += 5) {
        const sunny = m > 8 * 60 && m <= 16 * 60;
        if (sunny) counter += 3;
        const ts = utcOf(date, m);
        for (const s of totals) points.push({ signal_id: s, ts, value: counter });
        points.push({ signal_id: poa, ts, value: sunny ? 800 : 0 });
        points.push({ signal_id: tmod, ts, value: sunny ? 45 : 10 });
      }
    }
    await plant.ingest(points);
  });
  afterAll(() => t.close());

  it('says how much of a month has data: three complete days of a month are 3/days of it', async () => {
    const res = await t.http.get(`/api/plants/${tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'month', date: `${month}-15` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const k = res.json<PlantKpisAnswer>();
    expect(k.energy_kwh).toBeGreaterThan(0);
    // The three days themselves are complete and fully available…
    expect(k.availability.time_based).toBeCloseTo(1, 6);
    expect(k.data_completeness).toBeCloseTo(1, 6);
    // …but they are three of the month's days.
    expect(k.coverage).toBeCloseTo(3 / days, 9);
    expect(isLowCoverage(k.coverage)).toBe(true);
    const byKey = new Map(k.rows.map((r) => [r.key, r]));
    expect(byKey.get(dates[0]!)!.coverage).toBeCloseTo(1, 9);
    expect(byKey.get(`${month}-10`)!.coverage).toBe(0);
    expect(byKey.get(`${month}-10`)!.energy_kwh).toBeNull();
  });

  it('answers a day without any data with coverage 0, and a future day with none', async () => {
    const empty = await t.http.get(`/api/plants/${tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: `${month}-20` },
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<PlantKpisAnswer>().coverage).toBe(0);
    const year = await t.http.get(`/api/plants/${tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'year', date: `${month}-01` },
    });
    const rows = year.json<PlantKpisAnswer>().rows;
    // Months after this one have not begun: nothing to cover yet.
    const future = rows.filter((r) => r.key > istanbulDate(now).slice(0, 7));
    for (const r of future) expect(r.coverage).toBeNull();
    expect(rows.find((r) => r.key === month)!.coverage).toBeCloseTo(3 / days, 9);
  });

  it('puts the coverage in every row of a report of that month and warns in the PDF and XLSX', async () => {
    const query = { plant_ids: String(tree.plantId), from: `${month}-01`, to: `${month}-${days}` };
    const json = await t.http.get('/api/reports/production', {
      token: admin.token,
      query: { ...query, granularity: 'month', lang: 'en_US' },
    });
    expect(json.statusCode, json.body).toBe(200);
    const r = json.json<ProductionReportAnswer>();
    const plant = r.plants[0]!;
    expect(plant.totals.availability).toBeCloseTo(1, 6);
    expect(plant.totals.coverage).toBeCloseTo(3 / days, 9);
    expect(plant.rows[0]!.coverage).toBeCloseTo(3 / days, 9);
    expect(r.totals.coverage).toBeCloseTo(3 / days, 9);

    const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format((3 / days) * 100);
    const pdf = await t.http.get('/api/reports/production', {
      token: admin.token,
      query: { ...query, granularity: 'month', lang: 'en_US', format: 'pdf' },
    });
    expect(pdf.statusCode).toBe(200);
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf.rawPayload })
      .toString('utf8')
      .replace(/\s+/g, ' ');
    expect(text).toContain(`Coverage Plant: only ${percent} % of the period has data`);

    const xlsx = await t.http.get('/api/reports/production', {
      token: admin.token,
      query: { ...query, granularity: 'day', lang: 'en_US', format: 'xlsx' },
    });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[1]!;
    const header = Array.from(sheet.getRow(1).values as unknown[], (v) => (typeof v === 'string' ? v : ''));
    const col = header.findIndex((h) => h.startsWith('Data coverage'));
    expect(col).toBeGreaterThan(0);
    // One row a day: the three days with data are covered, the others not at all.
    const covered = [] as number[];
    for (let row = 2; row <= days + 1; row++) covered.push(Number(sheet.getRow(row).getCell(col).value));
    expect(covered.filter((c) => c === 1)).toHaveLength(3);
    expect(covered.filter((c) => c === 0)).toHaveLength(days - 3);
    const warnings = book.worksheets.at(-1)!;
    expect(warnings.name).toBe('Warnings');
    expect(warnings.getRow(2).getCell(1).text).toContain(`only ${percent} %`);
  });

  it('counts a 5-minute history of a device polled every 30 s against 5 minutes, and its gaps as gaps', async () => {
    const other = await makeTree(t, admin.token, 'Backfill');
    const ws = await save(t, admin.token, '/api/devices/0', {
      plant_id: other.plantId,
      name: 'WS-30s',
      type: 'weather_station',
      protocol: 'http',
      poll_interval_s: 30,
    });
    // makeTree's inverter has no data at all: only the station is looked at below.
    const poa = await save(t, admin.token, '/api/signals/0', {
      device_id: ws.id,
      key: 'irradiance',
      name: 'POA',
    });
    const key = (
      await t.http.post(`/api/plants/${other.plantId}/ingest-key`, {}, { token: admin.token })
    ).json<{
      key: string;
    }>().key;
    // Day 1 every 5 minutes all day; day 2 every 5 minutes from 06:00 (six hours missing).
    const [full, gappy] = [dates[0]!, dates[1]!];
    const points: { signal_id: number; ts: number; value: number }[] = [];
    for (let m = 0; m < 24 * 60; m += 5) {
      points.push({ signal_id: poa.id, ts: utcOf(full, m), value: 100 });
      if (m >= 6 * 60) points.push({ signal_id: poa.id, ts: utcOf(gappy, m), value: 100 });
    }
    const res = await t.http.post(
      '/api/telemetry',
      { points },
      { headers: { 'x-api-key': key }, xsrf: false },
    );
    expect(res.statusCode, res.body).toBe(200);

    const day = async (date: string) => {
      const r = await t.http.get(`/api/plants/${other.plantId}/kpis`, {
        token: admin.token,
        query: { period: 'day', date },
      });
      expect(r.statusCode, r.body).toBe(200);
      const k = r.json<PlantKpisAnswer>();
      return { k, station: k.devices!.find((d) => d.device_id === ws.id)! };
    };
    const a = await day(full);
    expect(a.station.poll_interval_s).toBe(30);
    expect(a.station.expected_interval_s).toBe(300);
    expect(a.station.expected_samples).toBe(288);
    expect(a.station.received_samples).toBe(288);
    expect(a.station.data_completeness).toBe(1);
    const b = await day(gappy);
    expect(b.station.expected_interval_s).toBe(300);
    expect(b.station.data_completeness).toBeCloseTo(216 / 288, 9);
    // The plant's figure: the station's samples against the station's expectation, and the inverter's
    // (no data, so its poll interval) against its own.
    const inverter = a.k.devices!.find((d) => d.device_id === other.deviceId)!;
    expect(inverter.received_samples).toBe(0);
    expect(a.k.data_completeness).toBeCloseTo(288 / (288 + inverter.expected_samples), 9);
  });

  it('warns below the threshold only', () => {
    expect(isLowCoverage(KPI_COVERAGE_WARNING_BELOW)).toBe(false);
    expect(isLowCoverage(KPI_COVERAGE_WARNING_BELOW - 0.001)).toBe(true);
    expect(isLowCoverage(null)).toBe(false);
  });
});
