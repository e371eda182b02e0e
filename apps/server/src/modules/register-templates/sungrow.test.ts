import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@solar/i18n';
import type { RegisterTemplateApplyAnswer } from '@solar/shared';
import { ModbusTcpClient } from '@solar/modbus';
import { startTemplateServer, type TemplateServer } from '@solar/simulator';
import {
  openModbusInverterScene,
  untilPolled as until,
  type ModbusInverterScene,
} from '../../test/modbus-inverter-fixtures';
import { dialectUnderTest } from '../../test/test-app';

/**
 * MPPT 4–12 as Sungrow's protocol numbers them (input registers, each voltage then current, 0.1 V and 0.1 A):
 * 5115–5124 for MPPT 4–8 and 5130–5137 for MPPT 9–12. The protocol address is the number minus one.
 */
const SUNGROW_MPPT_VOLTAGE_REGISTER: Record<number, number> = {
  4: 5115,
  5: 5117,
  6: 5119,
  7: 5121,
  8: 5123,
  9: 5130,
  10: 5132,
  11: 5134,
  12: 5136,
};

/** Sungrow work state values (register 5038) and fault code 039, low system insulation resistance. */
const RUN = 0x0000;
const FAULT = 0x5500;
const LOW_INSULATION = 39;

describe(`Sungrow SG CX over Modbus TCP with the template (${dialectUnderTest})`, () => {
  let scene: ModbusInverterScene<TemplateServer>;

  beforeAll(async () => {
    scene = await openModbusInverterScene({
      tree: 'Sungrow',
      hourlyAlarmTicks: true,
      startSimulator: () => startTemplateServer({ templateId: 'sungrow-sg-cx', port: 0, unitIds: [1] }),
      inverter: { name: 'SG110CX-01', slave_id: 1, poll_interval_s: 1 },
    });
  });
  afterAll(async () => {
    await scene?.close();
  });

  /** MPPT n at 600 + n V and n + 0.5 A. */
  const mpptValues = Object.fromEntries(
    Object.keys(SUNGROW_MPPT_VOLTAGE_REGISTER).flatMap((n) => [
      [`mppt${n}_dc_voltage`, 600 + Number(n)],
      [`mppt${n}_dc_current`, Number(n) + 0.5],
    ]),
  );

  it('reads the input registers, shows the work state as the console’s, and raises and clears the fault code’s alarm', async () => {
    const { t, admin, sim, inverter, alarms, summary } = scene;
    const applied = await t.http.post(
      `/api/devices/${inverter.id}/register-template`,
      { template: 'sungrow-sg-cx' },
      { token: admin.token },
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<RegisterTemplateApplyAnswer>().created).toHaveLength(38);
    await t.ctx.alarmEngine.reloadRules();

    sim.setValues(1, {
      ac_power: 98.765,
      total_energy: 1_234_567,
      daily_energy: 321.4,
      mppt2_dc_voltage: 605.3,
      sungrow_work_state: RUN,
      sungrow_fault_code: 0,
      ...mpptValues,
    });
    const poller = scene.startPoller();
    const latest = scene.latestValues;
    try {
      await until(async () => (await latest()).get('status_code') === 4);
      const values = await latest();
      expect(values.get('ac_power')).toBeCloseTo(98.765, 3);
      expect(values.get('total_energy')).toBe(1_234_567);
      expect(values.get('daily_energy')).toBeCloseTo(321.4, 1);
      expect(values.get('sungrow_work_state')).toBe(RUN);
      expect((await summary()).mppts.find((m) => m.index === 2)?.dc_voltage_v).toBeCloseTo(605.3, 1);
      // MPPT 4–12 from their own block of registers, on the inverter page's MPPT table.
      await until(async () => (await summary()).mppts.length === 12);
      const mppts = (await summary()).mppts;
      for (const n of Object.keys(SUNGROW_MPPT_VOLTAGE_REGISTER).map(Number)) {
        const row = mppts.find((m) => m.index === n);
        expect(row?.dc_voltage_v, `MPPT ${n}`).toBeCloseTo(600 + n, 1);
        expect(row?.dc_current_a, `MPPT ${n}`).toBeCloseTo(n + 0.5, 1);
      }

      sim.setValues(1, { ac_power: 0, sungrow_work_state: FAULT, sungrow_fault_code: LOW_INSULATION });
      await until(async () =>
        (await alarms()).some((a) => a.message === 'alarms.msg.sungrow.c39' && a.cleared_at === null),
      );
      const raised = (await alarms()).find((a) => a.message === 'alarms.msg.sungrow.c39')!;
      expect(raised).toMatchObject({
        source: 'device_status',
        priority_id: 3,
        message_params: { vendor: 'Sungrow', code: LOW_INSULATION },
      });
      const params = raised.message_params as Record<string, string | number>;
      expect(translate('tr_TR', raised.message, params)).toMatch(
        /^Sungrow 39: Düşük sistem yalıtım direnci\./,
      );
      expect(translate('mk_MK', raised.message, params)).toMatch(/^Sungrow 39: Низок отпор на изолацијата\./);
      await until(async () => (await latest()).get('status_code') === 7);
      expect(await summary()).toMatchObject({ status_code: 7, status_text_key: 'kpi.inverterState.fault' });

      // The fault is repaired: the register holds no code and the alarm clears.
      sim.setValues(1, { sungrow_work_state: RUN, sungrow_fault_code: 0 });
      await until(async () =>
        (await alarms()).some((a) => a.message === 'alarms.msg.sungrow.c39' && a.cleared_at !== null),
      );
      await until(async () => (await latest()).get('status_code') === 4);
    } finally {
      await poller.stop();
    }
  });

  it("puts MPPT 4–12 at the registers Sungrow's protocol gives them", async () => {
    const { sim } = scene;
    sim.setValues(1, mpptValues);
    const client = new ModbusTcpClient({ host: '127.0.0.1', port: sim.port, timeoutMs: 2_000 });
    try {
      for (const [n, register] of Object.entries(SUNGROW_MPPT_VOLTAGE_REGISTER)) {
        const [voltage, current] = await client.readRegisters('input', 1, register - 1, 2);
        expect(voltage, `MPPT ${n} voltage at ${register}`).toBe((600 + Number(n)) * 10);
        expect(current, `MPPT ${n} current at ${register + 1}`).toBe((Number(n) + 0.5) * 10);
      }
    } finally {
      client.close();
    }
  });
});
