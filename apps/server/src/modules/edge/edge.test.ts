import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localWallTime,
  type AlarmRecord,
  type CollectionHealthAnswer,
  type DataQualityProblemList,
  type EdgeConfigAnswer,
  type EdgeHealthAnswer,
  REGISTER_TEMPLATES,
} from '@solar/shared';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';

/**
 * The console's side of a plant's edge agent over HTTP: its configuration and version, its health reports
 * with the clock offset, the admin panel's list, the silence alarm and the clock-offset data-quality flags.
 */

const MINUTE = 60_000;
/** The engine's default silence bound: three missed reports and 30 s of grace. */
const SILENCE_MS = 3 * MINUTE + 30_000;

describe(`edge agent endpoints (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let plantKey: string;
  let deviceKey: string;
  /** The console's clock, moved by the tests. */
  let clock = Math.floor(Date.now() / 1000) * 1000;

  const keyOf = async (path: string) => {
    const res = await t.http.post(path, undefined, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ key: string }>().key;
  };
  const getConfig = (key?: string, token?: string) =>
    t.http.get('/api/edge/config', { headers: key ? { 'x-api-key': key } : {}, token });
  // As the agent sends it: no anti-forgery cookie, the key alone.
  const report = (body: Record<string, unknown>, key = plantKey) =>
    t.http.post('/api/edge/health', body, { headers: { 'x-api-key': key }, xsrf: false });
  const healthBody = (over: Record<string, unknown> = {}) => ({
    agent_id: 'edge-01',
    version: '1.0.0',
    sent_at: new Date(clock).toISOString(),
    queue_depth: 12,
    oldest_unsent_at: new Date(clock - 30_000).toISOString(),
    last_sent_at: new Date(clock - 5_000).toISOString(),
    dropped_total: 3,
    poll_failures: 7,
    uptime_s: 3600,
    ...over,
  });
  const configOf = async () => {
    const res = await getConfig(plantKey);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EdgeConfigAnswer>();
  };
  const agentsOf = async () => {
    const res = await t.http.get('/api/admin/collection-health', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CollectionHealthAnswer>().agents.filter((a) => a.plant_id === tree.plantId);
  };
  const edgeAlarms = async () => {
    const res = await t.http.get('/api/alarms', {
      token: admin.token,
      query: { plant_id: String(tree.plantId) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AlarmRecord[]>().filter((a) => a.message === 'alarms.msg.edgeAgentSilent');
  };
  const clockFlags = async () => {
    const res = await t.http.get('/api/data-quality/problems', {
      token: admin.token,
      query: { plant_id: String(tree.plantId), reason: 'agent_clock_offset' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DataQualityProblemList>().items;
  };

  beforeAll(async () => {
    t = await createTestApp({}, { now: () => clock, alarmEngine: { tickMs: 3_600_000 } });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'Edge');
    plantKey = await keyOf(`/api/plants/${tree.plantId}/ingest-key`);
    deviceKey = await keyOf(`/api/devices/${tree.deviceId}/ingest-key`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a missing or wrong key (401), a device key or a user token (403), a bad body (400)', async () => {
    expect((await getConfig()).statusCode).toBe(401);
    expect((await getConfig('sk_not-a-key')).statusCode).toBe(401);
    expect((await report(healthBody(), 'sk_not-a-key')).statusCode).toBe(401);
    expect((await getConfig(deviceKey)).statusCode).toBe(403);
    expect((await report(healthBody(), deviceKey)).statusCode).toBe(403);
    expect((await getConfig(undefined, admin.token)).statusCode).toBe(403);
    const bad = await report(healthBody({ agent_id: 'has spaces', queue_depth: -1 }));
    expect(bad.statusCode, bad.body).toBe(400);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'agent_id',
      'queue_depth',
    ]);
    expect(await agentsOf()).toEqual([]);
  });

  it("answers the plant's active Modbus devices with their registered signals, and a version that follows them", async () => {
    const polled = await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'total_energy',
      name: 'Total Energy',
      unit: 'kWh',
      data_type: 'uint32',
      register_type: 'holding',
      address: 40093,
      word_order: 'big',
      scale: 0.1,
      is_counter: true,
    });
    // Not polled: no register (the tree's ac_power), inactive, another protocol, an inactive device.
    await save(t, admin.token, '/api/signals/0', {
      device_id: tree.deviceId,
      key: 'temperature',
      name: 'Temperature',
      register_type: 'input',
      address: 10,
      is_active: false,
    });
    await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Edge Meter',
      type: 'meter',
      protocol: 'mqtt',
      mqtt_topic: 'solar/edge-meter',
    });
    await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Edge INV-02',
      type: 'inverter',
      protocol: 'modbus_tcp',
      ip: '10.0.0.11',
      port: 502,
      slave_id: 2,
      is_active: false,
    });
    const rtu = await save(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Edge RTU',
      type: 'inverter',
      protocol: 'modbus_rtu',
      serial_path: '/dev/ttyUSB0',
      baud_rate: 9600,
      slave_id: 3,
    });
    // Another plant's device stays out.
    await makeTree(t, admin.token, 'Elsewhere');

    const config = await configOf();
    expect(config.plant_id).toBe(tree.plantId);
    expect(config.plant_time_zone).toBe('Europe/Istanbul');
    expect(config.config_version).toMatch(/^[0-9a-f]{32}$/);
    expect(config.devices.map((d) => [d.id, d.protocol])).toEqual([
      [tree.deviceId, 'modbus_tcp'],
      [rtu.id, 'modbus_rtu'],
    ]);
    expect(config.devices[0]).toMatchObject({ ip: '10.0.0.10', port: 502, slave_id: 1 });
    expect(config.devices[1]).toMatchObject({ serial_path: '/dev/ttyUSB0', baud_rate: 9600, slave_id: 3 });
    expect(config.devices[0]!.signals).toEqual([
      {
        id: polled.id,
        key: 'total_energy',
        data_type: 'uint32',
        register_type: 'holding',
        address: 40093,
        word_order: 'big',
        scale: 0.1,
        scale_factor_address: null,
        sunspec_type: null,
        value_map: null,
        is_counter: true,
      },
    ]);
    expect(config.devices[1]!.signals).toEqual([]);

    // The same content, the same version; a signal's change, a device's change each give another.
    expect((await configOf()).config_version).toBe(config.config_version);
    await save(t, admin.token, `/api/signals/${polled.id}`, {
      device_id: tree.deviceId,
      key: 'total_energy',
      name: 'Total Energy',
      unit: 'kWh',
      data_type: 'uint32',
      register_type: 'holding',
      address: 40093,
      word_order: 'big',
      scale: 0.01,
      is_counter: true,
    });
    const afterSignal = await configOf();
    expect(afterSignal.config_version).not.toBe(config.config_version);
    await save(t, admin.token, `/api/devices/${rtu.id}`, {
      plant_id: tree.plantId,
      name: 'Edge RTU',
      type: 'inverter',
      protocol: 'modbus_rtu',
      serial_path: '/dev/ttyUSB0',
      baud_rate: 19200,
      slave_id: 3,
    });
    const afterDevice = await configOf();
    expect(afterDevice.config_version).not.toBe(afterSignal.config_version);
    expect(afterDevice.devices[1]!.baud_rate).toBe(19200);

    // A register template's state map reaches the agent with its signal, so the agent stores the console's
    // state, as the console's own poller does (packages/modbus decodes both).
    const applied = await t.http.post(
      `/api/devices/${rtu.id}/register-template`,
      { template: 'huawei-sun2000' },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    const status = (await configOf()).devices[1]!.signals.find((s) => s.key === 'status_code')!;
    const shipped = REGISTER_TEMPLATES['huawei-sun2000']!.signals.find((s) => s.key === 'status_code')!;
    expect(shipped.value_map).toBeTruthy();
    expect(status.value_map).toEqual(shipped.value_map);
  });

  it('stores the latest report per agent on the console clock and answers the clock offset', async () => {
    const res = await report(healthBody({ sent_at: new Date(clock + 1234).toISOString() }));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<EdgeHealthAnswer>();
    expect(answer).toEqual({
      server_time: new Date(clock).toISOString(),
      clock_offset_ms: 1234,
      config_version: (await configOf()).config_version,
    });
    clock += MINUTE;
    const second = await report(healthBody({ queue_depth: 0, oldest_unsent_at: null, sent_at: clock - 800 }));
    expect(second.json<EdgeHealthAnswer>().clock_offset_ms).toBe(-800);
    const [agent, ...others] = await agentsOf();
    expect(others).toEqual([]);
    expect(agent).toEqual({
      plant_id: tree.plantId,
      plant_name: 'Edge Plant',
      plant_time_zone: 'Europe/Istanbul',
      agent_id: 'edge-01',
      version: '1.0.0',
      last_report_at: new Date(clock).toISOString(),
      clock_offset_ms: -800,
      queue_depth: 0,
      oldest_unsent_at: null,
      last_sent_at: new Date(clock - 5_000).toISOString(),
      dropped_total: 3,
      poll_failures: 7,
      uptime_s: 3600,
      stale: false,
      clock_problem: false,
    });
  });

  it("raises the plant's communication alarm for a silent agent and clears it when reports resume", async () => {
    await report(healthBody());
    const reported = clock;
    // Just inside the bound: nothing.
    clock = reported + SILENCE_MS;
    await t.ctx.alarmEngine.tick(clock);
    expect(await edgeAlarms()).toEqual([]);

    clock = reported + SILENCE_MS + 10_000;
    await t.ctx.alarmEngine.tick(clock);
    const [raised, ...more] = await edgeAlarms();
    expect(more).toEqual([]);
    expect(raised).toMatchObject({
      plant_id: tree.plantId,
      device_id: null,
      source: 'comm_loss',
      message_params: { agent: 'edge-01', minutes: 4 },
      cleared_at: null,
    });
    expect(raised!.state.startsWith('active_')).toBe(true);
    // A second tick raises nothing more.
    await t.ctx.alarmEngine.tick(clock + 10_000);
    expect(await edgeAlarms()).toHaveLength(1);

    // Stale on the admin panel after five minutes without a report.
    clock = reported + 5 * MINUTE + 1;
    expect((await agentsOf())[0]!.stale).toBe(true);

    expect((await report(healthBody())).statusCode).toBe(200);
    expect((await agentsOf())[0]!.stale).toBe(false);
    await t.ctx.alarmEngine.tick(clock);
    const [cleared] = await edgeAlarms();
    expect(cleared!.cleared_at).toBe(new Date(clock).toISOString());
  });

  it('flags the devices the agent polls while its clock is more than 5 s off, and ends the stretch after', async () => {
    const polled = (await configOf()).devices.map((d) => d.id).sort();
    const within = await report(healthBody({ sent_at: clock + 5_000 }));
    expect(within.json<EdgeHealthAnswer>().clock_offset_ms).toBe(5_000);
    expect(await clockFlags()).toEqual([]);

    clock += MINUTE;
    const openedAt = clock;
    const off = await report(healthBody({ sent_at: clock - 8_000 }));
    expect(off.json<EdgeHealthAnswer>().clock_offset_ms).toBe(-8_000);
    let flags = await clockFlags();
    expect(flags.map((f) => f.device_id).sort()).toEqual(polled);
    for (const f of flags) {
      expect(f).toMatchObject({
        reason: 'agent_clock_offset',
        from: new Date(openedAt).toISOString(),
        to: new Date(openedAt).toISOString(),
        detail: { offset_ms: -8_000, bound_ms: 5_000, open: 1 },
        local_day: localWallTime(openedAt, 'Europe/Istanbul').slice(0, 10),
      });
    }
    const agent = (await agentsOf())[0]!;
    expect([agent.clock_offset_ms, agent.clock_problem]).toEqual([-8_000, true]);

    // Still off a minute later: the same flags, grown.
    clock += MINUTE;
    await report(healthBody({ sent_at: clock + 9_000 }));
    flags = await clockFlags();
    expect(flags).toHaveLength(polled.length);
    for (const f of flags)
      expect([f.from, f.to, f.detail.open]).toEqual([
        new Date(openedAt).toISOString(),
        new Date(clock).toISOString(),
        1,
      ]);

    // A rerun of the plant's day (the detectors) leaves the reported flags alone.
    const day = localWallTime(openedAt, 'Europe/Istanbul').slice(0, 10);
    const recheck = await t.http.post(
      `/api/plants/${tree.plantId}/data-quality/recheck`,
      { day },
      { token: admin.token },
    );
    expect(recheck.statusCode, recheck.body).toBe(200);
    expect(await clockFlags()).toHaveLength(polled.length);

    // Back within the bound: the stretch ends at that report, and the next report opens nothing.
    clock += MINUTE;
    const closedAt = clock;
    await report(healthBody({ sent_at: clock + 100 }));
    clock += MINUTE;
    await report(healthBody({ sent_at: clock }));
    flags = await clockFlags();
    expect(flags).toHaveLength(polled.length);
    for (const f of flags)
      expect([f.to, f.detail.open, f.detail.offset_ms]).toEqual([new Date(closedAt).toISOString(), 0, 100]);
    expect((await agentsOf())[0]!.clock_problem).toBe(false);
  });

  it("clears a silent agent's alarm when its plant is deactivated", async () => {
    const retired = await makeTree(t, admin.token, 'Retired');
    const key = await keyOf(`/api/plants/${retired.plantId}/ingest-key`);
    expect((await report(healthBody({ agent_id: 'edge-retired' }), key)).statusCode).toBe(200);
    clock += SILENCE_MS + 1;
    await t.ctx.alarmEngine.tick(clock);
    const alarmsOf = async () => {
      const res = await t.http.get('/api/alarms', {
        token: admin.token,
        query: { plant_id: String(retired.plantId) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AlarmRecord[]>().map((a) => [a.message, a.cleared_at]);
    };
    expect(await alarmsOf()).toEqual([['alarms.msg.edgeAgentSilent', null]]);
    await save(t, admin.token, `/api/plants/${retired.plantId}`, {
      field_id: retired.fieldId,
      name: 'Retired Plant',
      time_zone: 'Europe/Istanbul',
      is_active: false,
    });
    clock += 1000;
    await t.ctx.alarmEngine.tick(clock);
    expect(await alarmsOf()).toEqual([['alarms.msg.edgeAgentSilent', new Date(clock).toISOString()]]);
  });

  it('limits each key to 20 calls a minute per route (429 with Retry-After)', async () => {
    const other = await makeTree(t, admin.token, 'Limited');
    const key = await keyOf(`/api/plants/${other.plantId}/ingest-key`);
    for (let i = 0; i < 20; i++) expect((await getConfig(key)).statusCode).toBe(200);
    const refused = await getConfig(key);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The health route counts on its own; another key is not held back.
    expect((await report(healthBody({ agent_id: 'edge-limited' }), key)).statusCode).toBe(200);
    expect((await getConfig(plantKey)).statusCode).toBe(200);
    clock += MINUTE + 1;
    expect((await getConfig(key)).statusCode).toBe(200);
  });
});
