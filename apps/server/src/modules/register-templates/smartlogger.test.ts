import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, LatestValue, RegisterTemplateApplyAnswer } from '@solar/shared';
import { startTemplateServer, type TemplateServer } from '@solar/simulator';
import { startModbusPoller } from '../../collectors/modbus/modbus-poller';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { quietLog as quiet, until } from '../../test/collector-helpers';

/**
 * Huawei's SmartLogger answers Modbus TCP for itself at unit id 0 and for each device behind it at that
 * device's own address (docs/vendor-templates.md, "huawei-smartlogger"). The simulator serves the
 * SmartLogger's plant registers at unit 0 and other values at unit 3 on one socket; the console's device
 * with unit id 0 reads unit 0's.
 */
describe(`Huawei SmartLogger at its own unit id 0 (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let sim: TemplateServer;

  beforeAll(async () => {
    t = await createTestApp({
      deviceNetworks: { extraAllowed: ['127.0.0.0/8'], cameraDeadlineMs: 1_000, modbusDeadlineMs: 1_000 },
    });
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'SmartLogger');
    sim = await startTemplateServer({ templateId: 'huawei-smartlogger', port: 0, unitIds: [0, 3] });
  });
  afterAll(async () => {
    await sim?.close();
    await t?.close();
  });

  it('is saved with unit id 0 and polled at unit 0 over a real socket', async () => {
    const logger = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'SmartLogger3000A',
      type: 'data_logger',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: sim.port,
      slave_id: 0,
      poll_interval_s: 1,
    });
    expect(logger.slave_id).toBe(0);
    expect(
      (await t.http.get(`/api/devices/${logger.id}`, { token: admin.token })).json<Device>().slave_id,
    ).toBe(0);
    const applied = await t.http.post(
      `/api/devices/${logger.id}/register-template`,
      { template: 'huawei-smartlogger' },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<RegisterTemplateApplyAnswer>().created.length).toBeGreaterThan(0);

    sim.setValues(0, { ac_power: 1234.5, total_energy: 987_654.3 });
    sim.setValues(3, { ac_power: 55.5, total_energy: 42 });
    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => id !== logger.id,
    });
    const latest = async () => {
      const res = await t.http.get('/api/telemetry/latest', {
        token: admin.token,
        query: { device_id: String(logger.id) },
      });
      return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v.value]));
    };
    try {
      await until(async () => (await latest()).has('ac_power'), 15_000, 50);
      const values = await latest();
      expect(values.get('ac_power')).toBeCloseTo(1234.5, 3);
      expect(values.get('total_energy')).toBeCloseTo(987_654.3, 1);
    } finally {
      await poller.stop();
    }
  });
});
