import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@solar/i18n';
import type { Device, RegisterTemplateApplyAnswer, RegisterTemplatesAnswer, SignalList } from '@solar/shared';
import {
  createVirtualPlant,
  driveHuaweiFromPlant,
  exampleTopology,
  startHuaweiServer,
  type HuaweiServer,
} from '@solar/simulator';
import { makeTree, makeUser, pairs, save, type TestUser, type Tree } from '../../test/org-fixtures';
import {
  HUAWEI_TEMPLATE_JSON as HUAWEI_JSON,
  openModbusInverterScene,
  untilPolled as until,
  type ModbusInverterScene,
} from '../../test/modbus-inverter-fixtures';
import { dialectUnderTest, type TestApp } from '../../test/test-app';

/** A template imported with the request: a meter's map that is not shipped (a test fixture). */
const METER_JSON = {
  format: 'solar-console/register-template@1',
  id: 'example-meter',
  vendor: 'Example',
  label: 'Example three-phase meter',
  device_type: 'meter',
  source: 'test fixture',
  signals: [
    {
      key: 'active_power',
      name: 'Active Power',
      unit: 'kW',
      register_type: 'input',
      address: 52,
      data_type: 'float32',
      word_order: 'big',
      scale: 0.001,
      is_counter: false,
    },
    {
      key: 'export_energy',
      name: 'Export Energy',
      unit: 'kWh',
      register_type: 'input',
      address: 74,
      data_type: 'float32',
      word_order: 'big',
      scale: 1,
      is_counter: true,
    },
  ],
};

describe(`register-map templates: Huawei SUN2000 over Modbus TCP (${dialectUnderTest})`, () => {
  let scene: ModbusInverterScene<HuaweiServer>;
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let sim: HuaweiServer;
  let inverter: Device;

  beforeAll(async () => {
    scene = await openModbusInverterScene({
      tree: 'Huawei',
      hourlyAlarmTicks: true,
      startSimulator: () => startHuaweiServer({ host: '127.0.0.1', port: 0, unitIds: [1] }),
      inverter: { name: 'HW INV-01', slave_id: 1, poll_interval_s: 1 },
    });
    ({ t, admin, tree, sim, inverter } = scene);
  });
  afterAll(async () => {
    await scene?.close();
  });

  const post = (path: string, body?: unknown, token = admin.token) => t.http.post(path, body, { token });

  it('exports the shipped templates as the JSON they ship in, to those who manage devices', async () => {
    const res = await t.http.get('/api/register-templates', { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<RegisterTemplatesAnswer>();
    const shipped = answer.templates.filter((x) => x.source === 'shipped');
    expect(shipped.map((x) => x.template.id)).toEqual([
      'huawei-sun2000',
      'sungrow-sg-cx',
      'janitza-umg',
      'huawei-emi',
      'kippzonen-smp',
      'huawei-smartlogger',
    ]);
    expect(shipped[0]).toMatchObject({ id: null, company_id: null, updated_at: null });
    expect(shipped[0]!.template).toEqual(HUAWEI_JSON);
    const viewer = await makeUser(t, { permissions: pairs(['device_management'], ['view']) });
    expect((await t.http.get('/api/register-templates', { token: viewer.token })).statusCode).toBe(403);
    expect((await t.http.get('/api/register-templates')).statusCode).toBe(401);
  });

  it('refuses bad bodies, unknown and foreign devices, other protocols and device types', async () => {
    for (const body of [
      {},
      { template: 'nope' },
      { template: 'huawei-sun2000', strings: 0 },
      { template: 'huawei-sun2000', strings: 25 },
      { template: 'huawei-sun2000', strings: 1.5 },
      { template: 'huawei-sun2000', template_json: HUAWEI_JSON },
      { template_json: { ...(HUAWEI_JSON as object), format: 'other@1' } },
      { template_json: METER_JSON, strings: 1 },
      // An alarm bit field the engine does not judge would be polled and never raise anything.
      { template_json: { ...METER_JSON, alarm_words: [{ key: 'meter_alarms', bits: [] }] } },
      [1],
    ]) {
      const res = await post(`/api/devices/${inverter.id}/register-template`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const bad = await post(`/api/devices/${inverter.id}/register-template`, { template: 'nope' });
    expect(JSON.stringify(bad.json())).toContain('validation.');
    const ok = { template: 'huawei-sun2000' };
    expect((await post('/api/devices/999999/register-template', ok)).statusCode).toBe(404);
    const meter = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'HW MTR',
      type: 'meter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: sim.port,
      slave_id: 2,
    });
    const wrongType = await post(`/api/devices/${meter.id}/register-template`, ok);
    expect(wrongType.statusCode).toBe(409);
    expect(wrongType.json()).toMatchObject({ detail: 'errors.templateDeviceType' });
    const http = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'HW HTTP',
      type: 'inverter',
      protocol: 'http',
    });
    const notModbus = await post(`/api/devices/${http.id}/register-template`, ok);
    expect(notModbus.statusCode).toBe(409);
    expect(notModbus.json()).toMatchObject({ detail: 'errors.notModbus' });

    const other = await makeTree(t, admin.token, 'HuaweiOther');
    const outsider = await makeUser(t, {
      companyId: other.companyId,
      permissions: pairs(['device_management']),
    });
    expect((await post(`/api/devices/${inverter.id}/register-template`, ok, outsider.token)).statusCode).toBe(
      404,
    );
    const viewer = await makeUser(t, { permissions: pairs(['device_management'], ['view']) });
    expect((await post(`/api/devices/${inverter.id}/register-template`, ok, viewer.token)).statusCode).toBe(
      403,
    );
    expect((await t.http.post(`/api/devices/${inverter.id}/register-template`, ok)).statusCode).toBe(401);
  });

  it('imports a template sent as JSON in the exported format and makes its signals', async () => {
    const meter = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'Imported MTR',
      type: 'meter',
      protocol: 'modbus_tcp',
      ip: '127.0.0.1',
      port: 502,
      slave_id: 3,
    });
    const res = await post(`/api/devices/${meter.id}/register-template`, { template_json: METER_JSON });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<RegisterTemplateApplyAnswer>().created.map((c) => c.key)).toEqual([
      'active_power',
      'export_energy',
    ]);
    const signals = (
      await t.http.get('/api/signals', { token: admin.token, query: { device_id: String(meter.id) } })
    ).json<SignalList>().items;
    expect(signals.find((s) => s.key === 'export_energy')).toMatchObject({
      register_type: 'input',
      address: 74,
      data_type: 'float32',
      is_counter: true,
    });
    // Imported onto an inverter: the template says it is a meter's.
    expect(
      (await post(`/api/devices/${inverter.id}/register-template`, { template_json: METER_JSON })).statusCode,
    ).toBe(409);
  });

  it('polls the simulated SUN2000 with the template, and its fault raises the Huawei alarm in the reader’s language', async () => {
    const applied = await post(`/api/devices/${inverter.id}/register-template`, {
      template: 'huawei-sun2000',
      strings: 2,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const answer = applied.json<RegisterTemplateApplyAnswer>();
    expect(answer.created.map((c) => c.key)).toEqual(
      expect.arrayContaining([
        'ac_power',
        'total_energy',
        'daily_energy',
        'temperature',
        'huawei_device_status',
        'huawei_alarm_1',
        'string1_dc_voltage',
        'string2_dc_current',
      ]),
    );
    expect(answer.created).toHaveLength(21);
    expect(answer.skipped).toEqual([]);
    const again = (
      await post(`/api/devices/${inverter.id}/register-template`, { template: 'huawei-sun2000', strings: 2 })
    ).json<RegisterTemplateApplyAnswer>();
    expect(again.created).toEqual([]);
    expect(again.skipped).toHaveLength(21);
    await t.ctx.alarmEngine.reloadRules();

    // A June morning of the example plant's first inverter, as the simulator computes it.
    const plant = createVirtualPlant(exampleTopology(1)[0]!, { seed: 1, faults: false, clouds: false });
    let now = Date.UTC(2025, 5, 21, 6);
    const driver = driveHuaweiFromPlant(
      sim,
      plant,
      [{ unitId: 1, deviceId: 'inv-01' }],
      3_600_000,
      () => now,
    );
    now = Date.UTC(2025, 5, 21, 9, 45);
    driver.update();
    const sample = plant.sample(now).find((s) => s.deviceId === 'inv-01')!.readings;
    expect(sample.ac_power).toBeGreaterThan(10);

    const poller = scene.startPoller();
    const latest = scene.latestValues;
    const alarms = scene.alarms;
    try {
      await until(async () => (await latest()).has('string2_dc_current'));
      const values = await latest();
      // Read back at the registers' resolution: W, kWh/100, A/100, V/10, °C/10.
      expect(values.get('ac_power')).toBeCloseTo(sample.ac_power!, 3);
      expect(values.get('total_energy')).toBeCloseTo(sample.total_energy!, 2);
      expect(values.get('daily_energy')).toBeCloseTo(sample.daily_energy!, 2);
      expect(values.get('temperature')).toBeCloseTo(sample.temperature!, 1);
      expect(values.get('string1_dc_current')).toBeCloseTo(sample.mppt1_dc_current!, 2);
      expect(values.get('string2_dc_voltage')).toBeCloseTo(sample.mppt2_dc_voltage!, 1);
      expect(values.get('huawei_device_status')).toBe(0x0200);
      expect(values.get('status_code')).toBe(4);
      expect(values.get('huawei_alarm_1')).toBe(0);
      expect((await alarms()).filter((a) => a.source === 'device_status')).toEqual([]);

      // The inverter trips off the grid: Huawei shows "Shutdown: fault" and alarm 2032, Grid Loss.
      plant.forceFault('inv-01', 'trip', now, 10 * 60_000);
      now += 60_000;
      driver.update();
      await until(async () => (await alarms()).some((a) => a.message === 'alarms.msg.huawei.c2032'));
      const raised = (await alarms()).find((a) => a.message === 'alarms.msg.huawei.c2032')!;
      expect(raised).toMatchObject({
        source: 'device_status',
        device_id: inverter.id,
        priority_id: 3,
        message_params: { vendor: 'Huawei', code: 2032 },
      });
      expect((await latest()).get('huawei_device_status')).toBe(0x0300);
      // Its text and repair advice, in each reader's language.
      const params = raised.message_params as Record<string, string | number>;
      expect(translate('tr_TR', raised.message, params)).toMatch(/^Huawei 2032: Şebeke kaybı\./);
      expect(translate('en_US', raised.message, params)).toMatch(
        /^Huawei 2032: Grid loss\. Check the AC switch/,
      );
      expect(translate('de_DE', raised.message, params)).toMatch(/^Huawei 2032: Netzausfall\./);
      expect(translate('mk_MK', raised.message, params)).toMatch(/^Huawei 2032: Губење на мрежата\./);
    } finally {
      driver.stop();
      await poller.stop();
    }
  });
});
