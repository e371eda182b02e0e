import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisterTemplateApplyAnswer } from '@solar/shared';
import { startHuaweiServer, type HuaweiServer } from '@solar/simulator';
import {
  openModbusInverterScene,
  untilPolled as until,
  type ModbusInverterScene,
} from '../../test/modbus-inverter-fixtures';
import { dialectUnderTest } from '../../test/test-app';

/** Huawei's device status values (SUN2000 interface definitions, register 32089). */
const ON_GRID = 0x0200;
const SHUTDOWN_FAULT = 0x0300;
/** "Communication interrupted", which a SmartLogger writes: not one of the inverter's own states. */
const SMARTLOGGER_COMM_INTERRUPTED = 0xb000;
/** Alarm 1, bit 7: 2032 Grid Loss. */
const GRID_LOSS_BIT = 1 << 7;

describe(`Huawei SUN2000 over Modbus RTU (RTU over TCP) with the template (${dialectUnderTest})`, () => {
  let scene: ModbusInverterScene<HuaweiServer>;

  beforeAll(async () => {
    scene = await openModbusInverterScene({
      tree: 'HuaweiRtu',
      hourlyAlarmTicks: true,
      // An RS485 line of SUN2000s behind an RTU-over-TCP gateway; the inverter is unit 3 on it.
      startSimulator: () => startHuaweiServer({ port: 0, unitIds: [3], transport: { kind: 'rtu-tcp' } }),
      inverter: {
        name: 'HW RTU INV',
        protocol: 'modbus_rtu',
        baud_rate: 9_600,
        slave_id: 3,
        poll_interval_s: 1,
      },
    });
  });
  afterAll(async () => {
    await scene?.close();
  });

  it("shows the vendor's status as the console's state, and raises and clears the Huawei alarm with its bit", async () => {
    const { t, admin, sim, inverter, latest, alarms, summary } = scene;
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
    const poller = scene.startPoller();
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
