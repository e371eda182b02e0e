import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantDeviceStatusAnswer } from '@solar/shared';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { isDaylight } from './engine';

/**
 * Longitude where the sun stands highest now (local solar noon) at the equator, to within the equation of
 * time (±4°): a plant there is in daylight, one at the antipode in night, whatever the hour of the run.
 */
const noonLongitude = (ms: number) => {
  const utcHours = (ms % 86_400_000) / 3_600_000;
  return (((12 - utcHours) * 15 + 540) % 360) - 180;
};
const antipode = (lon: number) => (lon > 0 ? lon - 180 : lon + 180);

describe(`device status (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  let tree: Tree;
  let other: Tree;
  let silent: number;
  let faulty: number;
  let warned: number;
  const sig: Record<string, number> = {};
  const dayLon = noonLongitude(Date.now());

  const ingest = async (points: { signal_id: number; ts: number; value: number }[]) => {
    const res = await t.http.post('/api/telemetry', { points }, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    await t.ctx.alarmEngine.idle();
  };
  const device = async (name: string) =>
    (
      await save(t, admin.token, '/api/devices/0', {
        plant_id: tree.plantId,
        name,
        type: 'inverter',
        protocol: 'http',
        poll_interval_s: 60,
      })
    ).id;
  const signal = async (deviceId: number) =>
    (await save(t, admin.token, '/api/signals/0', { device_id: deviceId, key: 'ac_power', name: 'AC' })).id;
  const rule = (tagId: number, priority: number) =>
    save(t, admin.token, '/api/alarms/custom/0', {
      name: `P${priority}`,
      description: 'too high',
      priority_id: priority,
      tag_id: tagId,
      operant: '>',
      value: 100,
      started_at: null,
      end_at: null,
      is_active: true,
    });
  const placePlant = (longitude: number) =>
    save(t, admin.token, `/api/plants/${tree.plantId}`, {
      field_id: tree.fieldId,
      name: 'Status Plant',
      time_zone: 'Europe/Istanbul',
      latitude: 0,
      longitude,
    });
  const statusOf = async (token = viewer.token) => {
    const res = await t.http.get(`/api/plants/${tree.plantId}/devices/status`, { token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<PlantDeviceStatusAnswer>();
    return { answer, by: new Map(answer.items.map((i) => [i.device_id, i])) };
  };

  beforeAll(async () => {
    t = await createTestApp({}, { alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Status');
    other = await makeTree(t, admin.token, 'OtherStatus');
    viewer = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['single_line'], ['view']) });
    await placePlant(dayLon);
    silent = await device('INV-silent');
    await signal(silent);
    faulty = await device('INV-fault');
    warned = await device('INV-warn');
    sig.faulty = await signal(faulty);
    sig.warned = await signal(warned);
    await rule(sig.faulty, 3);
    await rule(sig.warned, 1);
    const ts = Date.now() - 30_000;
    await ingest([
      { signal_id: tree.signalId, ts, value: 40 },
      { signal_id: sig.faulty, ts, value: 150 },
      { signal_id: sig.warned, ts, value: 150 },
    ]);
  });
  afterAll(() => t.close());

  it('derives each device status from its own alarms, its link and daylight', async () => {
    expect(isDaylight(Date.now(), 0, dayLon)).toBe(true);
    const { answer, by } = await statusOf();
    expect(answer.plant_id).toBe(tree.plantId);
    expect(answer.is_daylight).toBe(true);
    expect(answer.items.map((i) => i.device_id)).toEqual([tree.deviceId, silent, faulty, warned]);
    expect(by.get(tree.deviceId)).toMatchObject({ status: 'normal', communication: 'online' });
    expect(by.get(tree.deviceId)!.active_alarms.total).toBe(0);
    expect(Date.parse(by.get(tree.deviceId)!.last_data_at!)).toBeGreaterThan(Date.now() - 60_000);
    // An active priority-3 alarm of its own: fault; a priority-1 one: warning. Neither leaks to the others.
    expect(by.get(faulty)).toMatchObject({
      status: 'fault',
      communication: 'online',
      active_alarms: { low: 0, medium: 0, high: 1, dangerous: 0, total: 1 },
    });
    expect(by.get(warned)).toMatchObject({
      status: 'warning',
      active_alarms: { low: 1, medium: 0, high: 0, dangerous: 0, total: 1 },
    });
  });

  it('calls a device that never reported offline, whatever the daylight', async () => {
    const { by } = await statusOf();
    expect(by.get(silent)).toMatchObject({ status: 'offline', communication: 'lost', last_data_at: null });
  });

  it('calls a device silent for longer than three poll intervals offline', async () => {
    // 60 s polls: silence beyond the 5-minute floor is lost communication.
    const stale = await device('INV-stale');
    const s = await signal(stale);
    await ingest([{ signal_id: s, ts: Date.now() - 6 * 60_000, value: 10 }]);
    const { by } = await statusOf();
    expect(by.get(stale)).toMatchObject({ status: 'offline', communication: 'lost' });
    expect(by.get(stale)!.last_data_at).not.toBeNull();
  });

  it('says night for a quiet, communicating device when the sun is down at the plant', async () => {
    await placePlant(antipode(dayLon));
    try {
      const { answer, by } = await statusOf();
      expect(answer.is_daylight).toBe(false);
      expect(by.get(tree.deviceId)!.status).toBe('night');
      // Alarms and silence still outrank the night.
      expect(by.get(faulty)!.status).toBe('fault');
      expect(by.get(warned)!.status).toBe('warning');
      expect(by.get(silent)!.status).toBe('offline');
    } finally {
      await placePlant(dayLon);
    }
  });

  it('opens to view on plant, single_line or dashboard', async () => {
    for (const page of ['plant', 'dashboard'] as const) {
      const user = await makeUser(t, { companyId: tree.companyId, permissions: pairs([page], ['view']) });
      await statusOf(user.token);
    }
  });

  it('hides another company’s plant and unknown ids (404), refuses without the page (403) or a token (401)', async () => {
    const get = (plantId: number, token?: string) =>
      t.http.get(`/api/plants/${plantId}/devices/status`, token ? { token } : {});
    expect((await get(other.plantId, viewer.token)).statusCode).toBe(404);
    expect((await get(987_654, admin.token)).statusCode).toBe(404);
    const alarmOnly = await makeUser(t, { companyId: tree.companyId, permissions: pairs(['alarm', 'map']) });
    expect((await get(tree.plantId, alarmOnly.token)).statusCode).toBe(403);
    expect((await get(tree.plantId)).statusCode).toBe(401);
    expect((await get(tree.plantId, 'not-a-token')).statusCode).toBe(401);
    expect((await t.http.get(`/api/plants/abc/devices/status`, { token: admin.token })).statusCode).toBe(400);
  });
});
