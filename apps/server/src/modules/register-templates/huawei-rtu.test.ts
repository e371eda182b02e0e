import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlarmRecord,
  Device,
  InverterSummaryAnswer,
  LatestValue,
  RegisterTemplateApplyAnswer,
} from '@solar/shared';
import { startHuaweiServer, type HuaweiServer } from '@solar/simulator';
import { startModbusPoller } from '../../collectors/modbus/modbus-poller';
import { makeTree, makeUser, save, type TestUser, type Tree } from '../../test/org-fixtures';
import { createTestApp, dialectUnderTest, type TestApp } from '../../test/test-app';
import { quietLog as quiet, until as waitUntil } from '../../test/collector-helpers';

const until = (check: () => boolean | Promise<boolean>, timeoutMs = 15_000) =>
  waitUntil(check, timeoutMs, 50);

/** Huawei's device status values (SUN2000 interface definitions, register 32089). */
const ON_GRID = 0x0200;
const SHUTDOWN_FAULT = 0x0300;
/** "Communication interrupted", which a SmartLogger writes: not one of the inverter's own states. */
const SMARTLOGGER_COMM_INTERRUPTED = 0xb000;
/** Alarm 1, bit 7: 2032 Grid Loss. */
const GRID_LOSS_BIT = 1 << 7;

describe(`Huawei SUN2000 over Modbus RTU (RTU over TCP) with the template (${dialectUnderTest})`, () => {
  let t: TestApp;
  let admin: TestUser;
  let tree: Tree;
  let sim: HuaweiServer;
  let inverter: Device;

  beforeAll(async () => {
    // The engine's timer ticks once an hour: only the stored points raise and clear alarms here.
    t = await createTestApp(
      { deviceNetworks: { extraAllowed: ['127.0.0.0/8'], cameraDeadlineMs: 1_000, modbusDeadlineMs: 1_000 } },
      { alarmEngine: { tickMs: 3_600_000 } },
    );
    admin = await makeUser(t, { admin: true });
    tree = await makeTree(t, admin.token, 'HuaweiRtu');
    // An RS485 line of SUN2000s behind an RTU-over-TCP gateway; the inverter is unit 3 on it.
    sim = await startHuaweiServer({ port: 0, unitIds: [3], transport: { kind: 'rtu-tcp' } });
    inverter = await save<Device>(t, admin.token, '/api/devices/0', {
      plant_id: tree.plantId,
      name: 'HW RTU INV',
      type: 'inverter',
      protocol: 'modbus_rtu',
      ip: '127.0.0.1',
      port: sim.port,
      baud_rate: 9_600,
      slave_id: 3,
      poll_interval_s: 1,
    });
  });
  afterAll(async () => {
    await sim?.close();
    await t?.close();
  });

  it("shows the vendor's status as the console's state, and raises and clears the Huawei alarm with its bit", async () => {
    const applied = await t.http.post(
      `/api/devices/${inverter.id}/register-template`,
      { template: 'huawei-sun2000', strings: 1 },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    const created = applied.json<RegisterTemplateApplyAnswer>().created.map((c) => c.key);
    expect(created).toEqual(
      expect.arrayContaining(['huawei_device_status', 'status_code', 'huawei_alarm_1']),
    );
    await t.ctx.alarmEngine.reloadRules();

    sim.setValues(3, {
      ac_power: 37.25,
      total_energy: 81_234.5,
      huawei_device_status: ON_GRID,
      huawei_alarm_1: 0,
    });
    const poller = startModbusPoller(t.ctx, quiet, {
      timeoutMs: 300,
      excludeDeviceIds: (id) => id !== inverter.id,
    });
    const latest = async () => {
      const res = await t.http.get('/api/telemetry/latest', {
        token: admin.token,
        query: { device_id: String(inverter.id) },
      });
      return new Map(res.json<{ items: LatestValue[] }>().items.map((v) => [v.key, v]));
    };
    const alarms = async () =>
      (
        await t.http.get('/api/alarms', { token: admin.token, query: { device_id: String(inverter.id) } })
      ).json<AlarmRecord[]>();
    const summary = async () => {
      const res = await t.http.get(`/api/inverters/${inverter.id}/summary`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<InverterSummaryAnswer>();
    };
    try {
      await until(async () => (await latest()).get('status_code')?.value === 4);
      const values = await latest();
      expect(values.get('ac_power')?.value).toBeCloseTo(37.25, 3);
      expect(values.get('total_energy')?.value).toBeCloseTo(81_234.5, 2);
      // The raw register is kept as read; status_code is the console's state (SunSpec St 4, MPPT).
      expect(values.get('huawei_device_status')?.value).toBe(ON_GRID);
      expect(await summary()).toMatchObject({ status_code: 4, status_text_key: 'kpi.inverterState.mppt' });

      // The inverter trips on a grid loss: "Shutdown: fault" is the console's fault state, and alarm 1 bit 7
      // is Huawei's alarm 2032.
      sim.setValues(3, { ac_power: 0, huawei_device_status: SHUTDOWN_FAULT, huawei_alarm_1: GRID_LOSS_BIT });
      await until(async () =>
        (await alarms()).some((a) => a.message === 'alarms.msg.huawei.c2032' && a.cleared_at === null),
      );
      await until(async () => (await latest()).get('status_code')?.value === 7);
      expect(await summary()).toMatchObject({ status_code: 7, status_text_key: 'kpi.inverterState.fault' });
      // The console's fault state raises its own inverter-fault alarm, as for a SunSpec inverter.
      expect((await alarms()).find((a) => a.message === 'alarms.msg.inverterFault')).toMatchObject({
        cleared_at: null,
      });

      // The grid returns: the bit clears, and so does Huawei's alarm; the state is on-grid again.
      sim.setValues(3, { ac_power: 30, huawei_device_status: ON_GRID, huawei_alarm_1: 0 });
      await until(async () =>
        (await alarms()).some((a) => a.message === 'alarms.msg.huawei.c2032' && a.cleared_at !== null),
      );
      await until(async () => (await latest()).get('status_code')?.value === 4);
      const after = await alarms();
      expect(after.filter((a) => a.message === 'alarms.msg.huawei.c2032')).toHaveLength(1);
      expect(after.find((a) => a.message === 'alarms.msg.inverterFault')?.cleared_at).not.toBeNull();

      // A status value the map does not hold stores no state, rather than a wrong one: status_code keeps
      // its last value while the raw register moves on.
      const before = (await latest()).get('status_code')!;
      sim.setValues(3, { huawei_device_status: SMARTLOGGER_COMM_INTERRUPTED });
      await until(
        async () => (await latest()).get('huawei_device_status')?.value === SMARTLOGGER_COMM_INTERRUPTED,
      );
      const rawTs = (await latest()).get('huawei_device_status')!.ts;
      await until(async () => (await latest()).get('huawei_device_status')!.ts > rawTs);
      expect((await latest()).get('status_code')).toEqual(before);
    } finally {
      await poller.stop();
    }
  });
});
