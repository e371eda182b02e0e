/**
 * Engine-level tests of the built-in alarms over the real database: communication loss (from the Modbus
 * poller's device-state events, handed to the engine as background.ts does), a plant producing nothing in daylight, and an underperforming inverter.
 * Plant conditions are judged on the timer at the `now` given to `tick`, against the latest points'
 * own timestamps, so the tests drive time with explicit timestamps and ticks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRecord } from '@solar/shared';
import type { DeviceStateEvent } from '../../../collectors/modbus/modbus-poller';
import { makeTree, makeUser, save, type TestUser } from '../../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../../test/test-app';
import { createAlarmEngine, type AlarmEngine } from './alarm-engine';
import { MSG } from './device-codes';

const DELAY_MS = 200;

describe(`alarm engine built-in alarms (${dialectUnderTest})`, () => {
  let t: TestApp;
  let engine: AlarmEngine;
  let admin: TestUser;

  const store = async (points: { signal_id: number; ts: number; value: number }[]) => {
    await t.ctx.telemetry.store(points);
    await engine.idle();
  };
  const alarmsOfPlant = async (plantId: number, source?: string) => {
    const res = await t.http.get(`/api/alarms/${plantId}/plant`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<AlarmRecord[]>()
      .filter((a) => source === undefined || a.source === source)
      .sort((a, b) => a.id - b.id);
  };
  const device = (plantId: number, name: string, type: 'inverter' | 'weather_station') =>
    save(t, admin.token, '/api/devices/0', { plant_id: plantId, name, type, protocol: 'http' });
  const signal = (deviceId: number, key: string) =>
    save(t, admin.token, '/api/signals/0', { device_id: deviceId, key, name: key });

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        alarmEngine: {
          tickMs: 3_600_000,
          irradianceThresholdWm2: 200,
          noProductionDelayMs: DELAY_MS,
          performanceThresholdPct: 15,
          performanceDelayMs: DELAY_MS,
        },
      },
    );
    // The app's own engine, started by the app's background work.
    engine = t.ctx.alarmEngine;
    admin = await makeUser(t, { admin: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('communication loss: lost raises one alarm with the comm-loss message, online clears it', async () => {
    const tree = await makeTree(t, admin.token, 'Comm');
    const at = Date.now() - 60_000;
    const event = (state: 'lost' | 'online', previous: 'lost' | 'online', ts: number): DeviceStateEvent => ({
      deviceId: tree.deviceId,
      plantId: tree.plantId,
      previous,
      state,
      at: ts,
      lastError: state === 'lost' ? 'ETIMEDOUT' : null,
    });

    engine.deviceState(event('lost', 'online', at));
    // A repeated `lost` (e.g. after a restart of the poller) does not raise a second alarm.
    engine.deviceState(event('lost', 'online', at + 500));
    await engine.idle();
    let alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      source: 'comm_loss',
      plant_id: tree.plantId,
      device_id: tree.deviceId,
      tag_id: null,
      rule_id: null,
      priority_id: 3,
      message: MSG.commLoss,
      message_params: { error: 'ETIMEDOUT' },
      status_id: 1,
      started_at: new Date(at).toISOString(),
      cleared_at: null,
    });

    engine.deviceState(event('online', 'lost', at + 5_000));
    await engine.idle();
    alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      source: 'comm_loss',
      status_id: 4,
      status: 'cleared',
      cleared_at: new Date(at + 5_000).toISOString(),
    });

    // Lost again: a new alarm for the same condition.
    engine.deviceState(event('lost', 'online', at + 10_000));
    await engine.idle();
    alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms.map((a) => a.status_id)).toEqual([4, 1]);
    engine.deviceState(event('online', 'lost', at + 11_000));
    await engine.idle();
    expect((await alarmsOfPlant(tree.plantId)).map((a) => a.status_id)).toEqual([4, 4]);
  });

  it('communication loss recorded by the poller before the engine started is raised at start', async () => {
    const tree = await makeTree(t, admin.token, 'CommStart');
    const now = Date.now();
    await t.ctx.db
      .insertInto('device_status')
      .values({
        device_id: tree.deviceId,
        comm_state: 'lost',
        missed_polls: 3,
        last_ok_at: now - 600_000,
        last_error: 'ECONNREFUSED',
        changed_at: now - 300_000,
        updated_at: now - 300_000,
      })
      .execute();
    // A second engine over the same database, as after a restart with the poller on.
    const other = createAlarmEngine({ ...t.ctx, publisher: t.ctx.alarmPublisher }, { tickMs: 3_600_000 });
    await other.start({ commStatesAtStart: true });
    try {
      await other.idle();
      const alarms = await alarmsOfPlant(tree.plantId);
      expect(alarms.map((a) => [a.source, a.device_id, a.status_id, a.message])).toEqual([
        ['comm_loss', tree.deviceId, 1, MSG.commLoss],
      ]);
      other.deviceState({
        deviceId: tree.deviceId,
        plantId: tree.plantId,
        previous: 'lost',
        state: 'online',
        at: now,
        lastError: null,
      });
      await other.idle();
      expect((await alarmsOfPlant(tree.plantId)).map((a) => a.status_id)).toEqual([4]);
    } finally {
      await other.stop();
    }
  });

  it('plant producing nothing in daylight for longer than the delay raises; power back clears', async () => {
    const tree = await makeTree(t, admin.token, 'NoProd');
    const inv2 = await device(tree.plantId, 'NoProd INV-02', 'inverter');
    const power2 = await signal(inv2.id, 'ac_power');
    const ws = await device(tree.plantId, 'NoProd WS', 'weather_station');
    const irr = await signal(ws.id, 'irradiance');
    await engine.reloadRules(); // re-reads the built-in signal catalog
    const step = async (ts: number, irradiance: number, kw1: number, kw2: number) => {
      await store([
        { signal_id: irr.id, ts, value: irradiance },
        { signal_id: tree.signalId, ts, value: kw1 },
        { signal_id: power2.id, ts, value: kw2 },
      ]);
      await engine.tick(ts);
    };
    const t0 = Date.now() - 120_000;

    // Night: nothing produced, little irradiance, long past the delay: no alarm.
    await step(t0, 50, 0, 0);
    await step(t0 + 3 * DELAY_MS, 50, 0, 0);
    expect(await alarmsOfPlant(tree.plantId)).toEqual([]);

    // Sunshine, no power: pending until the delay has passed.
    const sun = t0 + 10_000;
    await step(sun, 600, 0, 0);
    await step(sun + DELAY_MS / 2, 600, 0, 0);
    expect(await alarmsOfPlant(tree.plantId)).toEqual([]);
    await step(sun + DELAY_MS + 50, 600, 0, 0);
    let alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      source: 'plant_no_production',
      plant_id: tree.plantId,
      device_id: null,
      tag_id: null,
      priority_id: 3,
      message: MSG.plantNoProduction,
      message_params: { irradiance: 600 },
      status_id: 1,
      started_at: new Date(sun + DELAY_MS + 50).toISOString(),
    });
    // Still nothing produced: still one alarm.
    await step(sun + 2 * DELAY_MS, 650, 0, 0);
    expect((await alarmsOfPlant(tree.plantId)).map((a) => a.status_id)).toEqual([1]);

    // Power back on one inverter: cleared at that tick.
    const back = sun + 3 * DELAY_MS;
    await step(back, 650, 40, 0);
    alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      source: 'plant_no_production',
      status_id: 4,
      cleared_at: new Date(back).toISOString(),
    });
    // No performance alarm either: two inverters are too few to judge peers.
    expect(await alarmsOfPlant(tree.plantId, 'performance')).toEqual([]);
  });

  it('an inverter far below the median of its peers in daylight raises a performance alarm on it only', async () => {
    const tree = await makeTree(t, admin.token, 'Perf');
    const invs = [{ id: tree.deviceId, signalId: tree.signalId }];
    for (const n of [2, 3, 4]) {
      const d = await device(tree.plantId, `Perf INV-0${n}`, 'inverter');
      invs.push({ id: d.id, signalId: (await signal(d.id, 'ac_power')).id });
    }
    const ws = await device(tree.plantId, 'Perf WS', 'weather_station');
    const irr = await signal(ws.id, 'poa_irradiance');
    await engine.reloadRules();
    const low = invs[2]!;
    const step = async (ts: number, lowKw: number, irradiance = 800) => {
      await store([
        { signal_id: irr.id, ts, value: irradiance },
        ...invs.map((i) => ({ signal_id: i.signalId, ts, value: i === low ? lowKw : 100 })),
      ]);
      await engine.tick(ts);
    };
    const t0 = Date.now() - 120_000;

    // A dip shorter than the delay: nothing.
    await step(t0, 50);
    await step(t0 + DELAY_MS / 2, 98);
    // The delay starts again from the next dip.
    await step(t0 + DELAY_MS, 50);
    await step(t0 + DELAY_MS + DELAY_MS / 2 + 50, 50);
    expect(await alarmsOfPlant(tree.plantId)).toEqual([]);
    const raisedAt = t0 + 2 * DELAY_MS + 10;
    await step(raisedAt, 50);
    let alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      source: 'performance',
      plant_id: tree.plantId,
      device_id: low.id,
      priority_id: 2,
      message: MSG.underperformance,
      message_params: { threshold: 15 },
      status_id: 1,
      started_at: new Date(raisedAt).toISOString(),
    });

    // Still low: no second alarm; recovery clears it.
    await step(raisedAt + DELAY_MS, 45);
    expect((await alarmsOfPlant(tree.plantId)).map((a) => a.status_id)).toEqual([1]);
    const recovered = raisedAt + 2 * DELAY_MS;
    await step(recovered, 97);
    alarms = await alarmsOfPlant(tree.plantId);
    expect(alarms.map((a) => [a.source, a.device_id, a.status_id])).toEqual([['performance', low.id, 4]]);
    expect(alarms[0]!.cleared_at).toBe(new Date(recovered).toISOString());

    // Night: a low inverter is no underperformance.
    const night = recovered + 10_000;
    await step(night, 0, 20);
    await step(night + 3 * DELAY_MS, 0, 20);
    expect((await alarmsOfPlant(tree.plantId)).map((a) => a.status_id)).toEqual([4]);
  });
});
