import { describe, expect, it } from 'vitest';
import {
  REGISTER_TEMPLATES,
  encodeRegisters,
  expandRegisterTemplate,
  expandTemplate,
  sunspecChainLayout,
  sunspecRegisterImage,
  SUNSPEC_TEMPLATES,
} from '@solar/shared';
import { decodePoll, planPoll, type PolledSignal } from './register-map';

const plain = (s: Partial<PolledSignal> & { id: number; address: number }): PolledSignal => ({
  key: `s${s.id}`,
  data_type: 'uint16',
  register_type: 'holding',
  word_order: 'big',
  scale: 1,
  scale_factor_address: null,
  sunspec_type: null,
  ...s,
});

describe('register map', () => {
  it('groups adjacent registers into one read and decodes types, word orders and scale', () => {
    const signals = [
      plain({ id: 1, address: 10, data_type: 'int16', scale: 0.1 }),
      plain({ id: 2, address: 11, data_type: 'uint32', word_order: 'little' }),
      plain({ id: 3, address: 13, data_type: 'float32' }),
      plain({ id: 4, address: 20, register_type: 'input', data_type: 'int32', scale: 0.001 }),
      plain({ id: 5, address: 30, register_type: 'coil', data_type: 'bool' }),
      plain({ id: 6, address: null as unknown as number }),
    ];
    const plan = planPoll(signals, 3);
    expect(plan.reads.map((r) => [r.register_type, r.unit_id, r.address, r.count])).toEqual([
      ['holding', 3, 10, 5],
      ['input', 3, 20, 2],
    ]);
    expect(plan.skipped).toEqual(['s5', 's6']);
    const holding = [
      ...encodeRegisters(-1234, 'int16'),
      ...encodeRegisters(70_000, 'uint32', 'little'),
      ...encodeRegisters(1.5, 'float32'),
    ];
    const input = encodeRegisters(-123_456, 'int32');
    expect(decodePoll(plan, [holding, input]).map((v) => [v.signal.id, v.value])).toEqual([
      [1, -123.4],
      [2, 70_000],
      [3, 1.5],
      [4, -123.456],
    ]);
    // A read that failed gives no values for its signals.
    expect(decodePoll(plan, [undefined, input]).map((v) => v.value)).toEqual([null, null, null, -123.456]);
  });

  it('decodes a SunSpec inverter template with its scale factors, and not-implemented points as null', () => {
    const layout = sunspecChainLayout(SUNSPEC_TEMPLATES['sunspec-inverter'].models);
    const image = sunspecRegisterImage(layout);
    const template = expandTemplate('sunspec-inverter', { chain: layout.models });
    const signals: PolledSignal[] = template.map((t, i) => ({
      id: i + 1,
      key: t.key,
      data_type: t.data_type,
      register_type: t.register_type,
      address: t.address,
      word_order: t.word_order,
      scale: t.scale,
      scale_factor_address: t.scale_factor_address,
      sunspec_type: t.sunspec_type,
    }));
    const byKey = (k: string) => template.find((t) => t.key === k)!;
    const put = (address: number, regs: number[]) => regs.forEach((r, i) => image.set(address + i, r));
    const power = byKey('ac_power');
    put(power.address, encodeRegisters(25617, 'int16'));
    put(power.scale_factor_address!, encodeRegisters(1, 'sunssf'));
    const energy = byKey('total_energy');
    put(energy.address, encodeRegisters(123_456_789, 'acc32'));
    put(energy.scale_factor_address!, encodeRegisters(0, 'sunssf'));

    const plan = planPoll(signals, 1);
    // The whole chain is a few reads, none longer than 125 registers.
    expect(plan.reads.length).toBeLessThanOrEqual(3);
    expect(plan.reads.every((r) => r.count <= 125)).toBe(true);
    const answers = plan.reads.map((r) =>
      Array.from({ length: r.count }, (_, i) => image.get(r.address + i) ?? 0),
    );
    const values = new Map(decodePoll(plan, answers).map((v) => [v.signal.key, v.value]));
    expect(values.get('ac_power')).toBe(256.17); // 25617 × 10^1 W = 256.17 kW
    expect(values.get('total_energy')).toBe(123_456.789); // Wh → kWh
    // Never measured: the not-implemented sentinel decodes to no value (acc32 0, int16 0x8000).
    expect(values.get('dc_power')).toBeNull();
    expect(values.get('mppt1_dc_energy')).toBeNull();
  });

  it("decodes a Sungrow SG CX inverter's input registers with the shipped template", () => {
    const template = REGISTER_TEMPLATES['sungrow-sg-cx']!;
    const signals: PolledSignal[] = expandRegisterTemplate(template).map((t, i) => ({
      id: i + 1,
      ...t,
      scale_factor_address: null,
      sunspec_type: null,
    }));
    // An SG110CX at noon, as its registers hold it: the words written out by hand from Sungrow's
    // resolutions (0.1 kWh, 1 kWh, 0.1 °C, 0.1 V, 0.1 A, W, 0.001, 0.1 Hz), 32-bit values low word first.
    const image = new Map<number, number>([
      [5002, 4_567], // daily yield 456.7 kWh
      [5003, 0xd687], // total yield 1 234 567 kWh = 0x0012D687: low word …
      [5004, 0x0012], // … then high word
      [5007, 0xfff6], // internal temperature -1.0 °C (int16)
      [5010, 6_123], // MPPT1 612.3 V
      [5011, 187], // MPPT1 18.7 A
      [5012, 6_050],
      [5013, 192],
      [5014, 5_987],
      [5015, 0],
      [5016, 0xb5f0], // DC power 112 112 W = 0x0001_B5F0, low word first
      [5017, 0x0001],
      [5018, 2_301], // phase A 230.1 V
      [5021, 1_587], // phase A 158.7 A
      [5030, 0xa0c8], // active power 106 696 W = 0x0001_A0C8, low word first
      [5031, 0x0001],
      [5032, 0xfc18], // reactive power -1000 var = 0xFFFF_FC18, low word first
      [5033, 0xffff],
      [5034, 998], // power factor 0.998
      [5035, 500], // 50.0 Hz
      [5037, 0x5500], // work state: Fault
      [5044, 39], // fault code 039: low insulation resistance
      [5070, 1_500], // insulation 1500 kΩ
    ]);
    const plan = planPoll(signals, 1);
    const answers = plan.reads.map((r) =>
      Array.from({ length: r.count }, (_, i) => image.get(r.address + i) ?? 0),
    );
    expect(plan.reads.every((r) => r.register_type === 'input')).toBe(true);
    const values = new Map(decodePoll(plan, answers).map((v) => [v.signal.key, v.value]));
    expect(values.get('daily_energy')).toBeCloseTo(456.7, 9);
    expect(values.get('total_energy')).toBe(1_234_567);
    expect(values.get('temperature')).toBeCloseTo(-1, 9);
    expect(values.get('mppt1_dc_voltage')).toBeCloseTo(612.3, 9);
    expect(values.get('mppt1_dc_current')).toBeCloseTo(18.7, 9);
    expect(values.get('mppt3_dc_voltage')).toBeCloseTo(598.7, 9);
    expect(values.get('dc_power')).toBeCloseTo(112.112, 9);
    expect(values.get('ac_voltage')).toBeCloseTo(230.1, 9);
    expect(values.get('ac_current')).toBeCloseTo(158.7, 9);
    expect(values.get('ac_power')).toBeCloseTo(106.696, 9);
    expect(values.get('reactive_power')).toBeCloseTo(-1, 9);
    expect(values.get('power_factor')).toBeCloseTo(0.998, 9);
    expect(values.get('frequency')).toBeCloseTo(50, 9);
    expect(values.get('insulation_resistance')).toBeCloseTo(1.5, 9);
    expect(values.get('sungrow_fault_code')).toBe(39);
    // The work state is kept as read, and read through its value map as the console's fault state (St 7).
    expect(values.get('sungrow_work_state')).toBe(0x5500);
    expect(values.get('status_code')).toBe(7);
  });
});
