import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DataQualityFlag,
  FleetLossesAnswer,
  FleetReportAnswer,
  PlantKpisAnswer,
  ProductionReportAnswer,
} from '@solar/shared';
import { makeUser, save, type TestUser } from '../../test/org-fixtures';
import {
  istanbulDate,
  istanbulInstant,
  makePlantWithDay,
  MORNING,
  PLANT_DAY_KWP,
  type PlantWithDay,
  type TelemetryPoint,
} from '../../test/plant-day';
import { pdfText, xlsxValues } from '../../test/report-readers';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

const DAY = 86_400_000;
const MIN = 60_000;
const STEP_KWH = 3.5;
const STUCK_WM2 = 800;
/** The reading from which the POA sensor is stuck, to the end of the morning (13 readings, an hour). */
const STUCK_FROM = 12;

/**
 * A POA sensor that reads a varying morning and then sticks at 800 W/m² for an hour: the data-quality
 * engine flags the stuck hour `stale`, and the KPIs then leave that hour's irradiance out of insolation and
 * PR as missing data, saying how many hours they left out and why. An accepted flag brings it back.
 */
describe(`kpi doubted irradiance (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: PlantWithDay;
  // Five days ago: neither the data-quality job's yesterday nor its today, whatever the hour.
  const day = istanbulDate(Date.now() - 5 * DAY);

  const dayKpis = async () => {
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlantKpisAnswer>();
  };
  /** The fleet loss view's item of the plant for the same day. */
  const fleetItem = async () => {
    const res = await t.http.get('/api/plants/losses', {
      token: admin.token,
      query: { period: 'day', date: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<FleetLossesAnswer>().items.find((i) => i.plant_id === plant.tree.plantId)!;
  };
  /** The plant's excluded hours as the production and fleet reports of the day answer them. */
  const reported = async () => {
    const of = async <T extends ProductionReportAnswer | FleetReportAnswer>(type: T['type']) => {
      const res = await t.http.get(`/api/reports/${type}`, {
        token: admin.token,
        query: { plant_ids: String(plant.tree.plantId), from: day, to: day, lang: 'en_US' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>().plants[0]!.excluded_irradiance_hours;
    };
    return {
      production: await of<ProductionReportAnswer>('production'),
      fleet: await of<FleetReportAnswer>('fleet'),
    };
  };
  /** The production report's file in `format`, in English. */
  const reportFile = async (format: 'pdf' | 'xlsx') => {
    const res = await t.http.get('/api/reports/production', {
      token: admin.token,
      query: { plant_ids: String(plant.tree.plantId), from: day, to: day, lang: 'en_US', format },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };
  /**
   * The plant's row of the production and fleet reports' CSV (English, comma, one day): each column's value
   * by its header.
   */
  const csvRows = async () => {
    const of = async (type: 'production' | 'fleet') => {
      const res = await t.http.get(`/api/reports/${type}`, {
        token: admin.token,
        query: {
          plant_ids: String(plant.tree.plantId),
          from: day,
          to: day,
          lang: 'en_US',
          format: 'csv',
          delimiter: 'comma',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [header, row] = res.body.replace(/^\uFEFF/, '').split('\r\n');
      const cells = row!.split(',');
      return Object.fromEntries(header!.split(',').map((h, i) => [h, cells[i]]));
    };
    return { production: await of('production'), fleet: await of('fleet') };
  };
  const NOTE = /h of irradiance were left out of insolation and PR/;
  const staleFlags = async (): Promise<DataQualityFlag[]> => {
    const res = await t.http.get(`/api/plants/${plant.tree.plantId}/data-quality`, {
      token: admin.token,
      query: { from: day, to: day },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<{ flags: DataQualityFlag[] }>()
      .flags.filter((f) => f.reason === 'stale' && f.signal_id === plant.signals.poa);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeUser(t, { admin: true });
    plant = await makePlantWithDay(t, admin, { name: 'Doubted' });
    const { totals, poa, moduleTemperature } = plant.signals;
    // The sensor in W/m², so the data-quality engine judges it as irradiance.
    await save(t, admin.token, `/api/signals/${poa}`, {
      device_id: plant.weatherStation,
      key: 'irradiance',
      name: 'irradiance',
      unit: 'W/m²',
      is_counter: false,
    });
    const points: TelemetryPoint[] = [];
    for (let i = 0; i <= MORNING.intervals; i++) {
      const ts = istanbulInstant(day, MORNING.startMinute + 5 * i);
      points.push({ signal_id: totals[0], ts, value: 50_000 + i * STEP_KWH });
      points.push({ signal_id: totals[1], ts, value: 60_000 + i * STEP_KWH });
      if (i > 0) {
        const g = i < STUCK_FROM ? Math.round((700 + 40 * Math.sin(i * 1.1) + 3 * i) * 10) / 10 : STUCK_WM2;
        points.push({ signal_id: poa, ts: ts + MIN, value: g });
        points.push({ signal_id: moduleTemperature, ts: ts + MIN, value: 40 + i * 0.2 });
      }
    }
    await plant.ingest(points);
  });
  afterAll(() => t.close());

  let before: PlantKpisAnswer;

  it('uses all the irradiance while nothing is flagged', async () => {
    before = await dayKpis();
    expect(before.irradiation_kwh_m2).toBeGreaterThan(1.4);
    expect(before.excluded_irradiance_hours.total).toBe(0);
    expect((await fleetItem()).excluded_irradiance_hours.total).toBe(0);
    const r = await reported();
    expect([r.production.total, r.fleet.total]).toEqual([0, 0]);
    expect(pdfText(await reportFile('pdf'))).not.toMatch(NOTE);
    // The CSV files say it in columns of their own: nothing left out.
    for (const row of Object.values(await csvRows()))
      expect(row).toMatchObject({ 'Irradiance left out (h)': '0.0', 'Energy left out (kWh)': '0.0' });
    expect(before.pr).toBeCloseTo(before.energy_kwh! / PLANT_DAY_KWP / before.irradiation_kwh_m2, 6);
  });

  it('leaves the stuck hour out of insolation and PR once it is flagged, and says so', async () => {
    const recheck = await t.http.post(
      `/api/plants/${plant.tree.plantId}/data-quality/recheck`,
      { day },
      { token: admin.token },
    );
    expect(recheck.statusCode, recheck.body).toBe(200);
    expect(await staleFlags()).toHaveLength(1);

    const k = await dayKpis();
    const hours = k.excluded_irradiance_hours.stale;
    // The flag covers the 13 stuck readings' intervals and the one after the last (its period ends an
    // interval after it), where no reading is: 13 or 14 five-minute intervals.
    const stuckHours = (MORNING.intervals - STUCK_FROM + 1) / 12;
    expect(hours).toBeGreaterThanOrEqual(stuckHours - 1e-9);
    expect(hours).toBeLessThanOrEqual(stuckHours + 1 / 12 + 1e-9);
    expect(k.excluded_irradiance_hours.total).toBeCloseTo(hours, 9);
    expect(k.excluded_irradiance_hours.spike).toBe(0);
    // The fleet loss view leaves the same hours out and says so with the plant page's figure.
    const item = await fleetItem();
    expect(item.excluded_irradiance_hours).toEqual(k.excluded_irradiance_hours);
    expect(item.irradiation_kwh_m2).toBeCloseTo(k.irradiation_kwh_m2, 9);
    // And so do the production and fleet reports: one truth.
    const r = await reported();
    expect(r.production).toEqual(k.excluded_irradiance_hours);
    expect(r.fleet).toEqual(k.excluded_irradiance_hours);
    // The report's files say it among their warnings, with the hours as the answers count them.
    const hoursText = String(Math.round(hours * 100) / 100);
    const pdf = pdfText(await reportFile('pdf'));
    expect(pdf).toMatch(NOTE);
    expect(pdf).toMatch(new RegExp(`: ${hoursText.replace('.', '\\.')} h of irradiance`));
    const sheets = xlsxValues(await reportFile('xlsx'));
    expect(JSON.stringify(sheets.Warnings ?? sheets)).toMatch(NOTE);
    // The CSV files, which carry no warnings, say it in columns: the day's row and the plant's.
    const csv = await csvRows();
    expect(csv.production).toMatchObject({
      'Irradiance left out (h)': hours.toFixed(1),
      'Energy left out (kWh)': '0.0',
    });
    expect(csv.fleet).toMatchObject({ 'Irradiance left out (h)': hours.toFixed(1) });
    // Each stuck interval held 800 W/m²: insolation drops by 0.8 kW/m² × their hours, PR rises with it.
    expect(k.irradiation_kwh_m2).toBeCloseTo(before.irradiation_kwh_m2 - (STUCK_WM2 / 1000) * stuckHours, 6);
    expect(k.energy_kwh).toBeCloseTo(before.energy_kwh!, 6);
    expect(k.pr).toBeCloseTo(k.energy_kwh! / PLANT_DAY_KWP / k.irradiation_kwh_m2, 6);
    expect(k.pr!).toBeGreaterThan(before.pr!);
    // Expected energy: an interval without irradiance is taken to have met expectation (losses.ts), as
    // one without weather data is, so the stuck hour no longer sets what was expected.
    expect(k.expected_energy_kwh).not.toBeCloseTo(before.expected_energy_kwh, 3);

    // A month reads the same stored day and says the same.
    const month = await t.http.get(`/api/plants/${plant.tree.plantId}/kpis`, {
      token: admin.token,
      query: { period: 'month', date: day },
    });
    const m = month.json<PlantKpisAnswer>();
    expect(m.excluded_irradiance_hours.stale).toBeCloseTo(hours, 9);
    expect(m.irradiation_kwh_m2).toBeLessThan(before.irradiation_kwh_m2 + 1e-9);
  });

  it('uses the irradiance again once an operator accepts the flag', async () => {
    const [flag] = await staleFlags();
    const accept = await t.http.post(
      `/api/data-quality/flags/${flag!.id}/accept`,
      { note: 'a cloudless hour, the sensor is fine' },
      { token: admin.token },
    );
    expect(accept.statusCode, accept.body).toBe(200);
    const k = await dayKpis();
    expect(k.excluded_irradiance_hours.total).toBe(0);
    expect((await fleetItem()).excluded_irradiance_hours.total).toBe(0);
    const r = await reported();
    expect([r.production.total, r.fleet.total]).toEqual([0, 0]);
    expect(pdfText(await reportFile('pdf'))).not.toMatch(NOTE);
    expect(k.irradiation_kwh_m2).toBeCloseTo(before.irradiation_kwh_m2, 9);
    expect(k.pr).toBeCloseTo(before.pr!, 9);
  });
});
