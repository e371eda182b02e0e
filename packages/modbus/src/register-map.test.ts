import { describe, expect, it } from 'vitest';
import {
  encodeRegisters,
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
});
