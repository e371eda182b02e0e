import { describe, expect, it } from 'vitest';
import { encodeRegisters, encodeString } from './codec';
import { discoverModels, discoverSunSpec } from './discovery';
import type { ReadRegisters } from './discovery';
import { SUNSPEC_TEMPLATES, sunspecChainLayout, sunspecRegisterImage } from './templates';

/** A device serving `image`; reading a register it does not hold is an Illegal Data Address exception. */
function device(image: Map<number, number>, log: [number, number][] = []): ReadRegisters {
  return (address, count) => {
    log.push([address, count]);
    const out: number[] = [];
    for (let a = address; a < address + count; a++) {
      const v = image.get(a);
      if (v === undefined) return Promise.reject(new Error('Modbus exception 2: Illegal Data Address'));
      out.push(v);
    }
    return Promise.resolve(out);
  };
}

/** The synthetic register image of an inverter: built with the encoder, register by register. */
function inverterImage(base: number): Map<number, number> {
  const image = new Map<number, number>();
  const put = (address: number, registers: number[]) =>
    registers.forEach((r, i) => image.set(address + i, r));
  let a = base;
  put(a, encodeString('SunS', 2));
  a += 2;
  put(a, [...encodeRegisters(1, 'uint16'), ...encodeRegisters(66, 'uint16')]);
  put(a + 2, encodeString('Example Solar', 16));
  for (let i = a + 18; i < a + 68; i++) image.set(i, 0);
  a += 68;
  put(a, [103, 50]);
  for (let i = a + 2; i < a + 52; i++) image.set(i, 0);
  a += 52;
  put(a, [160, 8 + 2 * 20]);
  for (let i = a + 2; i < a + 50; i++) image.set(i, 0);
  a += 50;
  put(a, [...encodeRegisters(0xffff, 'uint16'), 0]);
  return image;
}

const INVERTER_CHAIN = (base: number) => [
  { id: 1, address: base + 2, length: 66 },
  { id: 103, address: base + 70, length: 50 },
  { id: 160, address: base + 122, length: 48 },
];

describe('SunSpec discovery', () => {
  it('walks the chain from SunS at 40000', async () => {
    const log: [number, number][] = [];
    expect(await discoverModels(device(inverterImage(40000), log))).toEqual(INVERTER_CHAIN(40000));
    // The marker, then ID and L of each model and of the end: no register of a model body is read.
    expect(log).toEqual([
      [40000, 2],
      [40002, 2],
      [40070, 2],
      [40122, 2],
      [40172, 2],
    ]);
  });

  it('finds the chain at base 0 and at 50000 too', async () => {
    expect(await discoverSunSpec(device(inverterImage(0)))).toEqual({
      baseAddress: 0,
      models: INVERTER_CHAIN(0),
    });
    expect(await discoverModels(device(inverterImage(50000)))).toEqual(INVERTER_CHAIN(50000));
  });

  it('finds the chains the templates describe', async () => {
    for (const template of Object.values(SUNSPEC_TEMPLATES)) {
      const layout = sunspecChainLayout(template.models, { baseAddress: 50000 });
      expect(await discoverSunSpec(device(sunspecRegisterImage(layout)))).toEqual({
        baseAddress: 50000,
        models: layout.models,
      });
    }
  });

  it('reports nothing, without an exception, when there is no marker', async () => {
    const zeros = new Map(Array.from({ length: 70000 }, (_, i) => [i, 0] as [number, number]));
    expect(await discoverModels(device(zeros))).toEqual([]);
    expect(await discoverModels(device(new Map()))).toEqual([]);
    const shifted = inverterImage(40001);
    expect(await discoverSunSpec(device(shifted))).toBeNull();
  });

  it('throws when a chain it found breaks off', async () => {
    const image = inverterImage(40000);
    image.delete(40172);
    await expect(discoverModels(device(image))).rejects.toThrow(/Illegal Data Address/);
    const endless = new Map<number, number>([
      [0, 0x5375],
      [1, 0x6e53],
    ]);
    for (let a = 2; a < 0x10000; a += 2) endless.set(a, 64000).set(a + 1, 0);
    await expect(discoverModels(device(endless), [0])).rejects.toThrow(/no end marker/);
  });
});
