/**
 * GET plants/overview over HTTP on three plants in three time zones (whose local days start at three
 * different instants), each figure worked out by hand from the posted readings: energy from the meter or
 * the inverters' counters in the plant's own day bucket, live power, PR today from hourly POA (and GHI
 * transposed to the plane), PR yesterday from a day still marked dirty, communication from each device's
 * newest sample (device_last_data), and only active alarms counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantKpisAnswer, PlantsOverviewAnswer } from '@solar/shared';
import { makeUser, save, type TestUser } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { resolvePoa } from './engine';
import { startKpiRefresh } from './jobs/kpi-refresh';

const MIN = 60_000;
const HOUR = 3_600_000;
/**
 * 09:30 UTC on a June day: 12:30 in Istanbul (today began 21:00 UTC the day before), 11:30 in Skopje
 * (22:00 UTC the day before) and 05:30 in New York (04:00 UTC the same day).
 */
const NOW = Date.parse('2026-06-15T09:30:00Z');
/** Istanbul's yesterday, 10:00 local. */
const ISTANBUL_YESTERDAY_10 = Date.parse('2026-06-14T07:00:00Z');

describe(`plants overview (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let answer: PlantsOverviewAnswer;
  const ids: Record<string, number> = {};
  const sig: Record<string, number> = {};

  const post = async (points: { signal_id: number; ts: number; value: number }[]) => {
    const res = await t.http.post('/api/telemetry', { points }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ stored: number }>().stored).toBe(points.length);
  };
  const device = async (plant: string, name: string, type: string, extra: Record<string, unknown> = {}) =>
    (ids[name] = (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: ids[plant],
        name,
        type,
        protocol: 'http',
        poll_interval_s: 300,
        ...extra,
      })
    ).id);
  const signal = async (dev: string, key: string, counter = false) =>
    (sig[`${dev}.${key}`] = (
      await save(t, admin.token, '/api/signals/0', {
        device_id: ids[dev],
        key,
        name: key,
        is_counter: counter,
      })
    ).id);
  const item = (plant: string) => answer.items.find((i) => i.plant_id === ids[plant])!;

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => NOW });
    admin = await makeUser(t, { admin: true });
    const company = await save(t, admin.token, '/api/companies/0', { name: 'Overview Co' });
    const field = await save(t, admin.token, '/api/fields/0', { company_id: company.id, name: 'Overview' });
    const plant = async (name: string, body: Record<string, unknown>) =>
      (ids[name] = (await save(t, admin.token, '/api/plants/0', { field_id: field.id, name, ...body })).id);

    // A: Istanbul, meter and POA station; no coordinates, so never "night".
    await plant('A', { time_zone: 'Europe/Istanbul', dc_capacity_kwp: 120 });
    await device('A', 'A-INV1', 'inverter', { rated_power_kw: 50 });
    await device('A', 'A-INV2', 'inverter', { rated_power_kw: 50 });
    await device('A', 'A-METER', 'meter');
    await device('A', 'A-WS', 'weather_station');
    await signal('A-INV1', 'ac_power');
    await signal('A-INV1', 'total_energy', true);
    await signal('A-INV2', 'total_energy', true);
    await signal('A-METER', 'export_energy', true);
    await signal('A-WS', 'irradiance');
    // B: Skopje, inverters only, a GHI-only station, coordinates and a set AC capacity.
    await plant('B', {
      time_zone: 'Europe/Skopje',
      dc_capacity_kwp: 60,
      ac_capacity_kw: 55,
      latitude: 42,
      longitude: 21.4,
      tilt_deg: 30,
      azimuth_deg: 180,
    });
    await device('B', 'B-INV1', 'inverter', { rated_power_kw: 50, poll_interval_s: 60 });
    await device('B', 'B-WS', 'weather_station');
    await signal('B-INV1', 'ac_power');
    await signal('B-INV1', 'total_energy', true);
    await signal('B-WS', 'ghi');
    // C: New York, silent for 20 minutes, one active low alarm and one cleared dangerous one.
    await plant('C', { time_zone: 'America/New_York', dc_capacity_kwp: 10 });
    await device('C', 'C-INV1', 'inverter', { rated_power_kw: 8, poll_interval_s: 60 });
    await signal('C-INV1', 'ac_power');

    // Yesterday in Istanbul, 10:00–11:00: the meter counts 5 kWh and the station sees 600 W/m² in each
    // of twelve 5-minute intervals. The refresh job marks the day dirty; the overview computes it.
    const refresh = startKpiRefresh(t.ctx, t.app.log, { intervalMs: 3_600_000 });
    const yesterday: { signal_id: number; ts: number; value: number }[] = [];
    for (let i = 0; i <= 12; i++) {
      const ts = ISTANBUL_YESTERDAY_10 + i * 5 * MIN;
      yesterday.push({ signal_id: sig['A-METER.export_energy']!, ts, value: 4000 + 5 * i });
      if (i > 0) yesterday.push({ signal_id: sig['A-WS.irradiance']!, ts: ts - 4 * MIN, value: 600 });
    }
    await post(yesterday);
    await refresh.flushed();
    await refresh.stop();

    await post([
      // A today: the meter continues from yesterday's 4060 and counts 140 kWh; the inverters 100 + 50.
      { signal_id: sig['A-METER.export_energy']!, ts: NOW - 3 * HOUR, value: 4060 },
      { signal_id: sig['A-METER.export_energy']!, ts: NOW - MIN, value: 4200 },
      { signal_id: sig['A-INV1.total_energy']!, ts: NOW - 3 * HOUR, value: 1000 },
      { signal_id: sig['A-INV1.total_energy']!, ts: NOW - MIN, value: 1100 },
      { signal_id: sig['A-INV2.total_energy']!, ts: NOW - 3 * HOUR, value: 2000 },
      { signal_id: sig['A-INV2.total_energy']!, ts: NOW - 2 * MIN, value: 2050 },
      { signal_id: sig['A-INV1.ac_power']!, ts: NOW - MIN, value: 40 },
      // POA: 600 in the 07:00 UTC hour, a mean of 900 in the 08:00 hour, 400 in the current half hour.
      { signal_id: sig['A-WS.irradiance']!, ts: NOW - 150 * MIN, value: 600 },
      { signal_id: sig['A-WS.irradiance']!, ts: NOW - 90 * MIN, value: 800 },
      { signal_id: sig['A-WS.irradiance']!, ts: NOW - 80 * MIN, value: 1000 },
      { signal_id: sig['A-WS.irradiance']!, ts: NOW - 10 * MIN, value: 400 },
      // B: its counter's last reading of yesterday is at 21:30 UTC (23:30 in Skopje); today it counts 25.
      { signal_id: sig['B-INV1.total_energy']!, ts: Date.parse('2026-06-14T21:30:00Z'), value: 300 },
      { signal_id: sig['B-INV1.total_energy']!, ts: NOW - 2 * HOUR, value: 310 },
      { signal_id: sig['B-INV1.total_energy']!, ts: NOW - 5 * MIN, value: 325 },
      { signal_id: sig['B-INV1.ac_power']!, ts: NOW - 4 * MIN, value: 20 },
      { signal_id: sig['B-WS.ghi']!, ts: NOW - 100 * MIN, value: 700 },
      { signal_id: sig['B-WS.ghi']!, ts: NOW - 40 * MIN, value: 800 },
      { signal_id: sig['C-INV1.ac_power']!, ts: NOW - 20 * MIN, value: 3 },
    ]);
    // An older reading arriving late does not move a device's newest sample back.
    await post([{ signal_id: sig['A-INV1.ac_power']!, ts: NOW - 2 * HOUR, value: 10 }]);

    // Alarms are the engine's to raise; here two are written as it writes them.
    const alarm = (priority: number, active: boolean) => ({
      plant_id: ids.C!,
      device_id: ids['C-INV1']!,
      tag_id: null,
      source: 'device_status',
      rule_id: null,
      condition_key: `evt:${priority}`,
      active_key: active ? `evt:${ids['C-INV1']}:${priority}` : null,
      priority_id: priority,
      message: 'alarms.msg.inverterFault',
      message_params: '{}',
      status_id: active ? 1 : 3,
      started_at: NOW - 3 * HOUR,
      cleared_at: active ? null : NOW - 2 * HOUR,
      approved_at: null,
      approved_by: null,
      rejected_at: null,
      rejected_by: null,
      fault_id: null,
    });
    await t.ctx.db
      .insertInto('alarms')
      .values([alarm(1, true), alarm(4, false)])
      .execute();

    const res = await t.http.get('/api/plants/overview', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    answer = res.json<PlantsOverviewAnswer>();
  });
  afterAll(() => t?.close());

  it("takes a plant's energy from its meter, in its own day, with live power against the rated sum", () => {
    const a = item('A');
    expect(a.energy_source).toBe('meter');
    expect(a.energy_today_kwh).toBeCloseTo(140, 9);
    expect(a.specific_yield_today_kwh_kwp).toBeCloseTo(140 / 120, 9);
    expect(a.ac_power_kw).toBeCloseTo(40, 9);
    expect(a.ac_capacity_kw).toBeCloseTo(100, 9);
    expect(a.ac_capacity_percent).toBeCloseTo(40, 9);
    // 600 × 1 h + 900 × 1 h + 400 × ½ h = 1.7 kWh/m².
    expect(a.pr_today).toBeCloseTo(140 / 120 / 1.7, 9);
    // Yesterday: 60 kWh / 120 kWp over 12 × 600 W/m² × 5 min = 0.6 kWh/m².
    expect(a.pr_yesterday).toBeCloseTo(60 / 120 / 0.6, 9);
    expect(a.status).toBe('normal');
    expect(a.last_data_at).toBe(new Date(NOW - MIN).toISOString());
    expect(a.active_alarms.total).toBe(0);
  });

  it("sums the inverters' counters in the plant's own local day and transposes GHI hour by hour", () => {
    const b = item('B');
    expect(b.energy_source).toBe('inverters');
    // The step that closes at 07:30 UTC (310 − 300) belongs to Skopje's today, which began 22:00 UTC.
    expect(b.energy_today_kwh).toBeCloseTo(25, 9);
    expect(b.ac_capacity_kw).toBe(55);
    expect(b.ac_capacity_percent).toBeCloseTo((20 / 55) * 100, 9);
    const geometry = { latitude: 42, longitude: 21.4, tiltDeg: 30, azimuthDeg: 180 };
    const poa = (hourStart: number, ghi: number) =>
      resolvePoa({ tsMs: hourStart + HOUR / 2, poaWm2: null, ghiWm2: ghi }, geometry).poaWm2!;
    const irradiation =
      (poa(Date.parse('2026-06-15T07:00:00Z'), 700) + poa(Date.parse('2026-06-15T08:00:00Z'), 800)) / 1000;
    // Transposed: a June noon sun is high, so the 30° plane sees a little less than the horizontal 1.5.
    expect(irradiation).toBeGreaterThan(1);
    expect(Math.abs(irradiation - 1.5)).toBeGreaterThan(0.01);
    expect(b.pr_today).toBeCloseTo(25 / 60 / irradiation, 9);
    expect(b.pr_yesterday).toBeNull();
    // 4 minutes since its last sample, polled every 60 s: online (lost after 5 minutes); the sun is up.
    expect(b.status).toBe('normal');
  });

  it('calls a plant silent for longer than its devices allow offline, and counts only active alarms', () => {
    const c = item('C');
    expect(c.energy_today_kwh).toBeNull();
    expect(c.energy_source).toBe('none');
    expect(c.pr_today).toBeNull();
    expect(c.last_data_at).toBe(new Date(NOW - 20 * MIN).toISOString());
    expect(c.active_alarms).toEqual({ low: 1, medium: 0, high: 0, dangerous: 0, total: 1 });
    // The cleared dangerous alarm would have made it "fault".
    expect(c.status).toBe('offline');
  });

  it("says how many hours of irradiance each plant's PR yesterday left out, as the plant page does", async () => {
    for (const p of ['A', 'B', 'C'])
      expect(item(p).excluded_irradiance_hours_yesterday, p).toMatchObject({ total: 0, stale: 0 });
    // The data-quality engine doubts half an hour of A's station yesterday (an open `stale` flag).
    await t.ctx.db
      .insertInto('data_quality_flags')
      .values({
        plant_id: ids.A!,
        device_id: ids['A-WS']!,
        signal_id: sig['A-WS.irradiance']!,
        reason: 'stale',
        local_day: '2026-06-14',
        flag_key: 'overview-test',
        from_ts: ISTANBUL_YESTERDAY_10,
        to_ts: ISTANBUL_YESTERDAY_10 + 30 * MIN,
        readings: 6,
        detected_at: NOW - HOUR,
        accepted_at: null,
        accepted_by: null,
        accept_note: null,
      })
      .execute();
    const res = await t.http.get('/api/plants/overview', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<PlantsOverviewAnswer>().items;
    const a = items.find((i) => i.plant_id === ids.A)!;
    expect(a.excluded_irradiance_hours_yesterday).toMatchObject({ stale: 0.5, total: 0.5 });
    const kpis = await t.http.get(`/api/plants/${ids.A}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: '2026-06-14' },
    });
    expect(kpis.statusCode, kpis.body).toBe(200);
    expect(a.excluded_irradiance_hours_yesterday).toEqual(
      kpis.json<PlantKpisAnswer>().excluded_irradiance_hours,
    );
    for (const p of ['B', 'C'])
      expect(items.find((i) => i.plant_id === ids[p])!.excluded_irradiance_hours_yesterday.total).toBe(0);
  });
});
