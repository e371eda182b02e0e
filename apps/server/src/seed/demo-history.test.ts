/**
 * A fresh demo, as `npm start` makes it, on a short history and an injected clock: the back-fill is
 * replayed through the real alarm engine, some alarms are worked into faults, nothing of it is mailed,
 * and the live phase raises a new alarm within its first 15 simulated minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALARM_STATUS_IDS,
  FAULT_STATUSES,
  type AlarmRecord,
  type FaultDetail,
  type InverterSummaryAnswer,
  type PlantKpisAnswer,
  type TelemetryCatalogAnswer,
} from '@solar/shared';
import type { BackgroundWork } from '../background';
import { makeUser, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';

/**
 * The end of the history: a fixed instant, so the simulated weather and faults are the same every run. The
 * weather is the field's (apps/simulator field-weather.ts), and on the day before this end the first
 * plant's field is clear at 10:00 UTC, so the grid outage forced then leaves a plant producing nothing in
 * full sun (under an overcast sky the irradiance stays below the no-production alarm's threshold).
 */
const END_MS = Date.UTC(2026, 8, 20, 14, 0, 0);
const LIVE_INTERVAL_MS = 30_000;

describe(`demo history and live events (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let background: BackgroundWork;
  let clock = END_MS;

  beforeAll(async () => {
    t = await createTestApp(
      { simulator: { enabled: true, backfillDays: 2 } },
      // The engine's own timer stays out of the way: the test ticks it at the injected time.
      { now: () => clock, alarmEngine: { tickMs: 3_600_000 } },
    );
    background = t.background()!;
    // Resolves once the history is written, replayed, worked into faults, and the live engine runs.
    await background.alarms;
    admin = await makeUser(t, { admin: true });
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  const alarms = async () => (await t.http.get('/api/alarms', { token: admin.token })).json<AlarmRecord[]>();

  it('the history holds alarms in every status, raised and cleared at their historical times', async () => {
    const all = await alarms();
    const byStatus = new Map(ALARM_STATUS_IDS.map((s) => [s, all.filter((a) => a.status_id === s)]));
    for (const [status, list] of byStatus) expect(list.length, `status ${status}`).toBeGreaterThan(0);
    for (const a of all) {
      expect(Date.parse(a.started_at)).toBeLessThanOrEqual(END_MS);
      expect(Date.parse(a.started_at)).toBeGreaterThanOrEqual(END_MS - 2 * 86_400_000);
      if (a.cleared_at) expect(Date.parse(a.cleared_at)).toBeGreaterThan(Date.parse(a.started_at));
    }
    // The scheduled story: trips with their SunSpec Evt1 cause, a communication loss, a grid outage
    // that leaves a plant producing nothing, and the trip that is still on at the end.
    const messages = new Set(all.map((a) => a.message));
    expect(messages).toContain('alarms.msg.inverterFault');
    expect(messages).toContain('alarms.msg.gridDisconnect');
    expect(messages).toContain('alarms.msg.commLoss');
    expect(messages).toContain('alarms.msg.plantNoProduction');
    expect(byStatus.get(1)!.map((a) => a.message)).toContain('alarms.msg.inverterFault');
  });

  it("yesterday's grid outage at the first plant's meter is one event: every inverter alarm of it follows the meter's", async () => {
    const all = await alarms();
    const outage = all.find((a) => a.message === 'alarms.msg.gridOutage');
    expect(outage).toMatchObject({ device_type: 'meter', cause_alarm_id: null });
    const followers = all.filter((a) => a.cause_alarm_id === outage!.id);
    expect(followers.length).toBe(outage!.consequence_count);
    expect(new Set(followers.map((a) => a.message))).toEqual(
      new Set(['alarms.msg.inverterFault', 'alarms.msg.gridDisconnect']),
    );
    for (const a of followers)
      expect(a).toMatchObject({ plant_id: outage!.plant_id, device_type: 'inverter' });
    // Each inverter of the plant reported both, and all of them are under the meter's alarm.
    const inverters = new Set(followers.map((a) => a.device_id));
    expect(followers.length).toBe(2 * inverters.size);
  });

  it('faults in every state, from alarms, with assignees of the plant’s company, comments and resolutions', async () => {
    const rows = await t.ctx.db.selectFrom('faults').select(['id', 'status', 'alarm_id']).execute();
    for (const status of FAULT_STATUSES)
      expect(rows.filter((f) => f.status === status).length, status).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.alarm_id).not.toBeNull();
      const res = await t.http.get(`/api/faults/${row.id}`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      const fault = res.json<FaultDetail>();
      const detected = Date.parse(fault.detected_at);
      if (fault.status === 'open') continue;
      const assignee = await t.ctx.db
        .selectFrom('users')
        .select('company_id')
        .where('id', '=', fault.assignee_user_id!)
        .executeTakeFirstOrThrow();
      expect(assignee.company_id).toBe(fault.company_id);
      expect(fault.comments.length).toBeGreaterThan(0);
      expect(fault.time_to_acknowledge_s).toBeGreaterThan(0);
      expect(Date.parse(fault.acknowledged_at!)).toBeGreaterThan(detected);
      if (fault.status === 'resolved' || fault.status === 'closed') {
        expect(fault.resolution).toBeTruthy();
        expect(fault.time_to_repair_s).toBeGreaterThan(0);
        expect(Date.parse(fault.resolved_at!)).toBeLessThanOrEqual(END_MS);
      }
      expect(fault.history.map((h) => h.to_status)[0]).toBe('open');
    }
  });

  it('no mail comes from history', () => {
    expect(t.outbox()).toEqual([]);
  });

  it('the catalog carries each signal’s Turkish display name and its technical key', async () => {
    const plantId = (await alarms())[0]!.plant_id;
    const res = await t.http.get('/api/telemetry/catalog', {
      token: admin.token,
      query: { plant_id: String(plantId) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const signals = (res.json<TelemetryCatalogAnswer>().devices ?? []).flatMap((d) => d.signals);
    expect(signals).toContainEqual(expect.objectContaining({ key: 'ac_power', name: 'AC Güç' }));
    expect(signals).toContainEqual(expect.objectContaining({ key: 'irradiance', name: 'Işınım' }));
  });

  it('a demo inverter reports its MPPT inputs, and its summary lists them', async () => {
    const inverter = await t.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('type', '=', 'inverter')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const res = await t.http.get(`/api/inverters/${inverter.id}/summary`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json<InverterSummaryAnswer>();
    expect(summary.mppts.map((m) => m.index)).toEqual([1, 2]);
    for (const m of summary.mppts) {
      expect(m.dc_voltage_v, `MPPT ${m.index}`).not.toBeNull();
      expect(m.dc_current_a, `MPPT ${m.index}`).not.toBeNull();
      expect(m.dc_power_kw, `MPPT ${m.index}`).not.toBeNull();
    }
  });

  it("yesterday's grid outage and curtailment show as grid loss, not downtime", async () => {
    const plants = await t.ctx.db.selectFrom('plants').select(['id', 'name']).orderBy('id').execute();
    // demoFaultSchedule: the first plant's grid is out 40 min from 10:00 UTC, the second is curtailed to
    // 50 % from 08:00 to 10:00 UTC; both Istanbul plants, so their local yesterday is the UTC date.
    const yesterday = new Date(END_MS - 86_400_000).toISOString().slice(0, 10);
    for (const plant of plants.slice(0, 2)) {
      const res = await t.http.get(`/api/plants/${plant.id}/kpis`, {
        token: admin.token,
        query: { period: 'day', date: yesterday },
      });
      expect(res.statusCode, res.body).toBe(200);
      const k = res.json<PlantKpisAnswer>();
      expect(k.losses.grid_curtailment_kwh, plant.name).toBeGreaterThan(10);
      const { total_kwh, ...parts } = k.losses;
      expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBeCloseTo(total_kwh, 6);
    }
    // The curtailed plant lost nothing to downtime in that window: its inverters were limited, not down.
    const curtailed = await t.http.get(`/api/plants/${plants[1]!.id}/kpis`, {
      token: admin.token,
      query: { period: 'day', date: yesterday },
    });
    expect(curtailed.json<PlantKpisAnswer>().availability.time_based).toBeGreaterThan(0.9);
  });

  it('live: a new alarm arrives within 15 simulated minutes of the start', async () => {
    const before = new Set((await alarms()).map((a) => a.id));
    const simulator = background.simulator!;
    const engine = t.ctx.alarmEngine;
    let arrived: AlarmRecord | undefined;
    for (let ms = LIVE_INTERVAL_MS; ms <= 15 * 60_000 && !arrived; ms += LIVE_INTERVAL_MS) {
      clock = END_MS + ms;
      await simulator.sample();
      await engine.tick(clock);
      arrived = (await alarms()).find((a) => !before.has(a.id));
    }
    expect(arrived).toBeDefined();
    expect(arrived!.status).toBe('active');
    expect(Date.parse(arrived!.started_at)).toBeGreaterThan(END_MS);
    expect(Date.parse(arrived!.started_at)).toBeLessThanOrEqual(END_MS + 15 * 60_000);
  });
});
