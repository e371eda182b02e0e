/**
 * The demo's long history, as `npm start` writes it on a first start (SIMULATOR_LONG_HISTORY_DAYS): one
 * plant's history reaches three years back, the part before the raw days as rollups only, and its
 * performance answer judges a degradation rate from it. Run once here, on SQLite only: the other demo tests
 * start without it (it is the first start's most costly part), and the rollup-only write is the history
 * import's, which its own tests cover on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantPerformanceAnswer } from '@solar/shared';
import { DEMO_LONG_HISTORY_PLANT } from '../background';
import { makeUser, type TestUser } from '../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../test/test-app';
import { readRollups } from '../telemetry-store/queries';

const DAY_MS = 86_400_000;
/** The end of the history: a fixed instant, so the simulated weather and faults are the same every run. */
const END_MS = Date.UTC(2026, 8, 20, 14, 0, 0);
/** As the demo's default (config.ts): three years and a little. */
const LONG_HISTORY_DAYS = 1_100;
const THREE_YEARS_DAYS = 3 * 365;

describe.skipIf(dialectUnderTest !== 'sqlite')(`the demo's three-year plant (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let plant: { id: number; name: string };

  beforeAll(async () => {
    t = await createTestApp(
      { simulator: { enabled: true, backfillDays: 1, longHistoryDays: LONG_HISTORY_DAYS } },
      { now: () => END_MS, alarmEngine: { tickMs: 3_600_000 } },
    );
    await t.background()!.alarms;
    admin = await makeUser(t, { admin: true });
    const plants = await t.ctx.db.selectFrom('plants').select(['id', 'name']).orderBy('id').execute();
    plant = plants[DEMO_LONG_HISTORY_PLANT]!;
  }, 1_800_000);
  afterAll(async () => {
    await t?.close();
  });

  it('each inverter of the plant has at least three years of daily energy', async () => {
    const signals = await t.ctx.db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .select('signals.id')
      .where('devices.plant_id', '=', plant.id)
      .where('devices.type', '=', 'inverter')
      .where('signals.key', '=', 'total_energy')
      .execute();
    expect(signals.length).toBeGreaterThan(0);
    for (const { id } of signals) {
      const days = await readRollups(t.ctx.db, '1d', [id], END_MS - (LONG_HISTORY_DAYS + 2) * DAY_MS, END_MS);
      const producing = days.filter((d) => (d.delta ?? 0) > 0);
      expect(days.length, `signal ${id}`).toBeGreaterThanOrEqual(THREE_YEARS_DAYS);
      // Nearly every day produced (a long trip or a cloudy winter day may not), from the first to the last.
      expect(producing.length, `signal ${id}`).toBeGreaterThan(0.95 * THREE_YEARS_DAYS);
      expect(Math.min(...days.map((d) => d.bucket))).toBeLessThanOrEqual(END_MS - THREE_YEARS_DAYS * DAY_MS);
    }
  });

  it('only that plant has a history older than the raw days', async () => {
    const plants = await t.ctx.db.selectFrom('plants').select('id').orderBy('id').execute();
    const other = plants.find((p) => p.id !== plant.id)!;
    const signal = await t.ctx.db
      .selectFrom('signals')
      .innerJoin('devices', 'devices.id', 'signals.device_id')
      .select('signals.id')
      .where('devices.plant_id', '=', other.id)
      .where('signals.key', '=', 'total_energy')
      .executeTakeFirstOrThrow();
    const old = await readRollups(t.ctx.db, '1d', [signal.id], 0, END_MS - 3 * DAY_MS);
    expect(old).toEqual([]);
  });

  it('the performance answer judges a degradation rate and the soiling from it', async () => {
    const res = await t.http.get(`/api/plants/${plant.id}/performance`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<PlantPerformanceAnswer>();
    const d = answer.degradation.plant;
    expect(d.status, JSON.stringify(d)).toBe('ok');
    if (d.status === 'ok') {
      // The simulator draws each inverter's rate from its seed, within −0.3…−0.9 %/yr, and soiling adds a
      // little: a rate far outside that would mean the history, not the method, is wrong.
      expect(d.rate_pct_per_year).toBeGreaterThan(-3);
      expect(d.rate_pct_per_year).toBeLessThan(0.5);
    }
    for (const inverter of answer.degradation.inverters) expect(inverter.result.status).toBe('ok');
    expect(answer.soiling.status, JSON.stringify(answer.soiling).slice(0, 400)).toBe('ok');
  });
});
