import { describe, expect, it } from 'vitest';
import { SIGNAL_KEY_PATTERN, signalBody } from '../signals';
import { applyScale, decodeRegisters, encodeRegisters, planReads, unapplyScale } from './codec';
import { SUNSPEC_MODELS } from './models';
import {
  SUNSPEC_TEMPLATES,
  SUNSPEC_TEMPLATE_IDS,
  expandModels,
  expandTemplate,
  scaleFactorReadItems,
  sunspecChainLayout,
  sunspecRegisterImage,
} from './templates';
import type { SunSpecTemplateSignal } from './templates';

const read = (image: Map<number, number>, address: number, count: number) =>
  Array.from({ length: count }, (_, i) => image.get(address + i) ?? 0);

describe('SunSpec templates', () => {
  it('lays the inverter chain out from 40000: SunS, 1, 103, 160, end', () => {
    const layout = sunspecChainLayout(SUNSPEC_TEMPLATES['sunspec-inverter'].models, { mpptInputs: 2 });
    expect(layout).toEqual({
      baseAddress: 40000,
      models: [
        { id: 1, address: 40002, length: 66 },
        { id: 103, address: 40070, length: 50 },
        { id: 160, address: 40122, length: 48 },
      ],
      endAddress: 40172,
    });
    expect(sunspecChainLayout([1, 203]).endAddress).toBe(40002 + 68 + 107);
    expect(sunspecChainLayout([1, 307], { baseAddress: 0 }).models[1]).toEqual({
      id: 307,
      address: 70,
      length: 11,
    });
  });

  it('puts the inverter signals where the standard does', () => {
    const byKey = new Map(expandTemplate('sunspec-inverter').map((s) => [s.key, s]));
    expect(byKey.get('ac_power')).toMatchObject({
      address: 40084,
      data_type: 'int16',
      scale: 0.001,
      scale_factor_address: 40085,
      unit: 'kW',
      word_order: 'big',
      register_type: 'holding',
    });
    expect(byKey.get('total_energy')).toMatchObject({
      address: 40094,
      count: 2,
      data_type: 'uint32',
      sunspec_type: 'acc32',
      scale: 0.001,
      scale_factor_address: 40096,
      unit: 'kWh',
      is_counter: true,
    });
    expect(byKey.get('status_code')).toMatchObject({ address: 40108, scale: 1, scale_factor_address: null });
    expect(byKey.get('event_bits')).toMatchObject({ address: 40110, count: 2, data_type: 'uint32' });
    // Model 160 at 40122: fixed part to 40132, then 20 registers per input; DCW is offset 11 of a block.
    expect(byKey.get('mppt1_dc_power')).toMatchObject({ address: 40143, scale_factor_address: 40126 });
    expect(byKey.get('mppt2_dc_power')).toMatchObject({ address: 40163, point: 'module[2].DCW' });
  });

  it('scales the weather station by the fixed scale factor of the standard', () => {
    const byKey = new Map(expandTemplate('sunspec-weather').map((s) => [s.key, s]));
    expect(byKey.get('ambient_temperature')).toMatchObject({
      address: 40072,
      scale: 0.1,
      scale_factor_address: null,
      unit: '°C',
    });
    expect(byKey.get('wind_speed')).toMatchObject({ address: 40075, scale: 1, unit: 'm/s' });
  });

  it('maps the first irradiance sensor set of 302 and the first module sensor of 303 to the station signals', () => {
    const byKey = new Map(expandTemplate('sunspec-weather').map((s) => [s.key, s]));
    // 307 at 40070 (L 11), then 302 at 40083 (L 5, one block), then 303 at 40090 (L 1, one block).
    expect(byKey.get('ghi')).toMatchObject({
      address: 40085,
      scale: 1,
      unit: 'W/m²',
      point: 'repeating[1].GHI',
    });
    expect(byKey.get('poa_irradiance')).toMatchObject({
      address: 40086,
      scale: 1,
      scale_factor_address: null,
      data_type: 'uint16',
      sunspec_type: 'uint16',
      unit: 'W/m²',
      model_id: 302,
    });
    expect(byKey.get('module_temperature')).toMatchObject({
      address: 40092,
      scale: 0.1,
      data_type: 'int16',
      unit: '°C',
      point: 'temp[1].TmpBOM',
    });
    expect(sunspecChainLayout(SUNSPEC_TEMPLATES['sunspec-weather'].models).endAddress).toBe(40093);
    // Further sensors widen the models but make no second station signal.
    const two = expandModels([1, 302, 303], { repeatBlocks: { 302: 2, 303: 3 } });
    expect(two.filter((s) => s.key === 'poa_irradiance')).toHaveLength(1);
    expect(two.filter((s) => s.key === 'module_temperature')).toHaveLength(1);
    const chain = sunspecChainLayout([1, 302, 303], { repeatBlocks: { 302: 2, 303: 3 } }).models;
    expect(chain.map((m) => [m.id, m.length])).toEqual([
      [1, 66],
      [302, 10],
      [303, 3],
    ]);
    // A discovered chain with two sensor sets reads the first one's POA.
    expect(expandModels([302], { chain }).find((s) => s.key === 'poa_irradiance')!.address).toBe(40070 + 3);
  });

  describe.each(SUNSPEC_TEMPLATE_IDS)('%s', (id) => {
    const layout = sunspecChainLayout(SUNSPEC_TEMPLATES[id].models);
    const signals = expandTemplate(id);

    it('gives consecutive, non-overlapping addresses inside the models of the chain', () => {
      expect(signals.length).toBeGreaterThan(0);
      const sorted = [...signals].sort((a, b) => a.address - b.address);
      expect(signals).toEqual(sorted);
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i]!.address, sorted[i]!.key).toBeGreaterThanOrEqual(
          sorted[i - 1]!.address + sorted[i - 1]!.count,
        );
      }
      for (const s of signals) {
        const model = layout.models.find((m) => m.id === s.model_id)!;
        expect(s.address, s.key).toBeGreaterThanOrEqual(model.address + 2);
        expect(s.address + s.count, s.key).toBeLessThanOrEqual(model.address + 2 + model.length);
        if (s.scale_factor_address !== null) {
          const offset = s.scale_factor_address - model.address;
          const sf = SUNSPEC_MODELS[s.model_id]!.points.find((p) => p.offset === offset);
          expect(sf?.type, s.key).toBe('sunssf');
        }
      }
      expect(layout.endAddress).toBe(layout.models.at(-1)!.address + 2 + layout.models.at(-1)!.length);
    });

    it('gives valid signal bodies with unique keys', () => {
      const keys = signals.map((s) => s.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const s of signals) {
        expect(s.key).toMatch(SIGNAL_KEY_PATTERN);
        const body = signalBody.safeParse({
          device_id: 1,
          key: s.key,
          name: s.name,
          unit: s.unit,
          data_type: s.data_type,
          register_type: s.register_type,
          address: s.address,
          word_order: s.word_order,
          scale: s.scale,
          is_counter: s.is_counter,
        });
        expect(body.success, `${s.key}: ${JSON.stringify(body.error?.issues)}`).toBe(true);
      }
    });

    it('decodes what a device serves to the values it meant', () => {
      const image = sunspecRegisterImage(layout);
      const sfs = scaleFactorReadItems(signals);
      sfs.forEach((item, i) => image.set(item.address, encodeRegisters(-(i % 3), 'sunssf')[0]!));
      const meant = new Map<string, number>();
      signals.forEach((s, i) => {
        const scaleFactor =
          s.scale_factor_address === null
            ? undefined
            : decodeRegisters(read(image, s.scale_factor_address, 1), 'sunssf');
        // In our unit: e.g. -0.003 kW, or 9 for a code.
        const value = Number(((s.sunspec_type === 'int16' ? -(i + 1) : i + 7) * s.scale).toPrecision(15));
        const raw = unapplyScale(value, { scale: s.scale, scaleFactor });
        encodeRegisters(raw, s.sunspec_type).forEach((r, j) => image.set(s.address + j, r));
        meant.set(s.key, value);
      });
      // Read it the way the poller will: planned reads, then decode each signal out of its read.
      const reads = planReads([...signals, ...sfs], 0);
      const decoded = new Map<string, number | null>();
      const regs = new Map<number, number>();
      for (const r of reads) read(image, r.address, r.count).forEach((v, i) => regs.set(r.address + i, v));
      for (const s of signals) {
        const sf =
          s.scale_factor_address === null
            ? undefined
            : decodeRegisters([regs.get(s.scale_factor_address)!], 'sunssf');
        const raw = decodeRegisters(read(regs, s.address, s.count), s.sunspec_type, { sunspec: true });
        decoded.set(s.key, applyScale(raw, { scale: s.scale, scaleFactor: sf }));
      }
      expect(Object.fromEntries(decoded)).toEqual(Object.fromEntries(meant));
    });

    it('reads as null from a device that implements nothing', () => {
      const image = sunspecRegisterImage(layout);
      for (const s of signals) {
        expect(
          decodeRegisters(read(image, s.address, s.count), s.sunspec_type, { sunspec: true }),
          s.key,
        ).toBeNull();
      }
    });
  });

  it('follows a discovered chain: other models between, another base, more MPPT inputs', () => {
    const chain = [
      { id: 1, address: 2, length: 66 },
      { id: 103, address: 70, length: 50 },
      { id: 120, address: 122, length: 26 },
      { id: 160, address: 150, length: 8 + 3 * 20 },
    ];
    const byKey = new Map<string, SunSpecTemplateSignal>(
      expandTemplate('sunspec-inverter', { chain }).map((s) => [s.key, s]),
    );
    expect(byKey.get('ac_power')?.address).toBe(84);
    expect(byKey.get('mppt3_dc_voltage')?.address).toBe(150 + 10 + 2 * 20 + 10);
    expect(byKey.has('mppt4_dc_voltage')).toBe(false);
  });

  it('does without the optional model 160 and refuses a chain that lacks a required model', () => {
    const without160 = expandTemplate('sunspec-inverter', {
      chain: [
        { id: 1, address: 40002, length: 66 },
        { id: 103, address: 40070, length: 50 },
      ],
    });
    expect(without160.some((s) => s.key.startsWith('mppt'))).toBe(false);
    expect(() => expandTemplate('sunspec-meter', { chain: [{ id: 1, address: 40002, length: 66 }] })).toThrow(
      /model 203/,
    );
    expect(() =>
      expandTemplate('sunspec-inverter', {
        chain: [
          { id: 1, address: 40002, length: 66 },
          { id: 103, address: 40070, length: 50 },
          { id: 160, address: 40122, length: 9 },
        ],
      }),
    ).toThrow(RangeError);
  });
});
