import { describe, expect, it } from 'vitest';
import {
  applyScale,
  decodeRegisters,
  decodeString,
  encodeRegisters,
  encodeString,
  planReads,
  registerCount,
  unapplyScale,
} from './codec';
import type { ModbusWordOrder, ReadItem, RegisterValueType } from './codec';

const ORDERS: ModbusWordOrder[] = ['big', 'little'];

/** Values worth a round trip per type: the extremes and something in between, none a sentinel. */
const SAMPLES: [RegisterValueType, number[]][] = [
  ['int16', [-32767, -1, 0, 1, 12345, 32767]],
  ['uint16', [0, 1, 40000, 65534]],
  ['sunssf', [-10, -3, 0, 2, 10]],
  ['enum16', [0, 4, 65534]],
  ['count', [0, 2, 65534]],
  ['bitfield16', [0, 0b1010, 65534]],
  ['acc16', [1, 65535]],
  ['int32', [-2147483647, -70000, 0, 70000, 2147483647]],
  ['uint32', [0, 70000, 4294967294]],
  ['acc32', [1, 123456789, 4294967295]],
  ['enum32', [0, 7, 4294967294]],
  ['bitfield32', [0, 0x8001, 4294967294]],
  ['float32', [0, 1.5, -273.25, 3.4028234663852886e38]],
  ['float64', [0, Math.PI, -1e300]],
  ['int64', [-(2 ** 53) + 1, -1, 0, 2 ** 53 - 1]],
  ['uint64', [0, 2 ** 53 - 1]],
  ['acc64', [1, 2 ** 40]],
];

describe('register codec', () => {
  describe.each(ORDERS)('word order %s', (wordOrder) => {
    it.each(SAMPLES)('round-trips %s', (type, values) => {
      for (const value of values) {
        const registers = encodeRegisters(value, type, wordOrder);
        expect(registers).toHaveLength(registerCount(type));
        for (const r of registers) expect(r >= 0 && r <= 0xffff && Number.isInteger(r)).toBe(true);
        expect(decodeRegisters(registers, type, { wordOrder, sunspec: true }), `${type} ${value}`).toBe(
          value,
        );
      }
    });
  });

  it('puts the high word first for big and last for little', () => {
    expect(encodeRegisters(0x12345678, 'uint32', 'big')).toEqual([0x1234, 0x5678]);
    expect(encodeRegisters(0x12345678, 'uint32', 'little')).toEqual([0x5678, 0x1234]);
    expect(encodeRegisters(-2, 'int32', 'big')).toEqual([0xffff, 0xfffe]);
    expect(encodeRegisters(1.5, 'float32', 'big')).toEqual([0x3fc0, 0x0000]);
    expect(encodeRegisters(1.5, 'float32', 'little')).toEqual([0x0000, 0x3fc0]);
    expect(decodeRegisters([0x0001, 0x0002, 0x0003, 0x0004], 'uint64', { wordOrder: 'little' })).toBe(
      0x0004_0003_0002_0001,
    );
  });

  it('decodes at an offset into a longer read', () => {
    const registers = [0xaaaa, ...encodeRegisters(-5, 'int32'), 0xbbbb];
    expect(decodeRegisters(registers, 'int32', { offset: 1 })).toBe(-5);
    expect(() => decodeRegisters(registers, 'int32', { offset: 3 })).toThrow(RangeError);
  });

  it('reads SunSpec not-implemented values as null', () => {
    const na: [RegisterValueType, number[]][] = [
      ['int16', [0x8000]],
      ['sunssf', [0x8000]],
      ['uint16', [0xffff]],
      ['enum16', [0xffff]],
      ['bitfield16', [0xffff]],
      ['count', [0xffff]],
      ['acc16', [0]],
      ['int32', [0x8000, 0x0000]],
      ['uint32', [0xffff, 0xffff]],
      ['enum32', [0xffff, 0xffff]],
      ['bitfield32', [0xffff, 0xffff]],
      // An accumulator's "not implemented" is 0, not 0xFFFFFFFF (SunSpec; pysunspec2 SUNS_UNIMPL_ACC32).
      ['acc32', [0x0000, 0x0000]],
      ['float32', [0x7fc0, 0x0000]],
      ['int64', [0x8000, 0, 0, 0]],
      ['uint64', [0xffff, 0xffff, 0xffff, 0xffff]],
    ];
    for (const [type, registers] of na) {
      expect(decodeRegisters(registers, type, { sunspec: true }), type).toBeNull();
      // null encodes the same sentinel, so the simulator can serve "not implemented".
      expect(encodeRegisters(null, type), type).toEqual(registers);
    }
    // A full-scale uint32 counter is a value: uint32 0xFFFFFFFF is "not implemented", acc32 is not.
    expect(decodeRegisters([0xffff, 0xffff], 'acc32')).toBe(4294967295);
  });

  it('keeps the sentinels of plain integer types as values for non-SunSpec devices', () => {
    expect(decodeRegisters([0x8000], 'int16')).toBe(-32768);
    expect(decodeRegisters([0xffff], 'uint16')).toBe(65535);
    expect(decodeRegisters([0xffff, 0xffff], 'uint32')).toBe(4294967295);
    // The SunSpec-only types always mean the standard.
    expect(decodeRegisters([0x8000], 'sunssf')).toBeNull();
    expect(decodeRegisters([0, 0], 'acc32')).toBeNull();
  });

  it('decodes bool as 0/1', () => {
    expect(decodeRegisters([0], 'bool')).toBe(0);
    expect(decodeRegisters([0x00ff], 'bool')).toBe(1);
    expect(encodeRegisters(1, 'bool')).toEqual([1]);
  });

  it('round-trips strings, two bytes a register, NUL-padded', () => {
    const registers = encodeString('SunSpecTest', 16);
    expect(registers).toHaveLength(16);
    expect(registers.slice(0, 2)).toEqual([0x5375, 0x6e53]);
    expect(decodeString(registers, 16)).toBe('SunSpecTest');
    expect(decodeString([0xaaaa, ...encodeString('ab', 2)], 2, 1)).toBe('ab');
    expect(decodeString(encodeString(null, 8), 8)).toBeNull();
    expect(() => encodeString('x'.repeat(17), 8)).toThrow(RangeError);
  });

  it('refuses values that do not fit', () => {
    expect(() => encodeRegisters(32768, 'int16')).toThrow(RangeError);
    expect(() => encodeRegisters(-1, 'uint16')).toThrow(RangeError);
    expect(() => encodeRegisters(2 ** 32, 'uint32')).toThrow(RangeError);
    expect(() => encodeRegisters(1.5, 'int32')).toThrow(RangeError);
    expect(() => decodeRegisters([0x10000], 'uint16')).toThrow(RangeError);
  });
});

describe('scaling', () => {
  it('applies a SunSpec scale factor and then the fixed scale to our unit', () => {
    // W = 12345 with W_SF = -1 is 1234.5 W, which is 1.2345 kW.
    expect(applyScale(12345, { scaleFactor: -1 })).toBe(1234.5);
    expect(applyScale(12345, { scaleFactor: -1, scale: 0.001 })).toBe(1.2345);
    expect(applyScale(-250, { scaleFactor: 2, scale: 0.001 })).toBe(-25);
    expect(applyScale(2301, { scale: 0.1 })).toBe(230.1);
    expect(applyScale(7, {})).toBe(7);
  });

  it('turns an acc32 Wh counter into kWh', () => {
    const registers = encodeRegisters(4_000_000_123, 'acc32');
    const wh = decodeRegisters(registers, 'acc32');
    expect(applyScale(wh, { scaleFactor: 0, scale: 0.001 })).toBe(4_000_000.123);
    expect(applyScale(decodeRegisters([0xffff, 0xffff], 'acc32'), { scaleFactor: 3, scale: 0.001 })).toBe(
      4_294_967_295,
    );
  });

  it('gives null for a null value, a not-implemented scale factor or one outside -10…10', () => {
    expect(applyScale(null, { scaleFactor: -1 })).toBeNull();
    expect(applyScale(100, { scaleFactor: decodeRegisters([0x8000], 'sunssf') })).toBeNull();
    expect(applyScale(100, { scaleFactor: 11 })).toBeNull();
  });

  it('inverts to the raw value for the simulator', () => {
    for (const [value, scaling] of [
      [1.2345, { scaleFactor: -1, scale: 0.001 }],
      [230.1, { scale: 0.1 }],
      [-25, { scaleFactor: 2, scale: 0.001 }],
      [49.99, { scaleFactor: -2 }],
    ] as const) {
      const raw = unapplyScale(value, scaling);
      expect(Number.isInteger(raw)).toBe(true);
      expect(applyScale(raw, scaling)).toBe(value);
    }
    expect(unapplyScale(1.2345, { scaleFactor: -1, scale: 0.001 })).toBe(12345);
    expect(unapplyScale(null, {})).toBeNull();
  });
});

describe('planReads', () => {
  const holding = (address: number, count = 1): ReadItem => ({ register_type: 'holding', address, count });

  it('reads adjacent registers in one request', () => {
    const items = [holding(40084), holding(40085), holding(40072), holding(40073, 2), holding(40075)];
    const reads = planReads(items, 0);
    expect(reads.map((r) => [r.address, r.count])).toEqual([
      [40072, 4],
      [40084, 2],
    ]);
    expect(reads[0]!.items).toHaveLength(3);
  });

  it('bridges gaps up to maxGap and splits beyond it', () => {
    const items = [holding(100), holding(103), holding(110)];
    expect(planReads(items, 2).map((r) => [r.address, r.count])).toEqual([
      [100, 4],
      [110, 1],
    ]);
    expect(planReads(items, 6).map((r) => [r.address, r.count])).toEqual([[100, 11]]);
  });

  it('never reads more than 125 registers at once', () => {
    const items = Array.from({ length: 300 }, (_, i) => holding(1000 + i));
    const reads = planReads(items, 0);
    expect(reads.map((r) => [r.address, r.count])).toEqual([
      [1000, 125],
      [1125, 125],
      [1250, 50],
    ]);
    // A two-register value never straddles two reads.
    const pairs = Array.from({ length: 100 }, (_, i) => holding(2 * i, 2));
    for (const read of planReads(pairs, 0)) {
      expect(read.count).toBeLessThanOrEqual(125);
      expect(read.count % 2).toBe(0);
    }
    expect(planReads(items, 0, 100)).toHaveLength(3);
  });

  it('never mixes register types or units', () => {
    const reads = planReads(
      [
        holding(10),
        { register_type: 'input', address: 11 },
        holding(12),
        { register_type: 'holding', address: 11, unit_id: 2 },
        holding(11),
      ],
      0,
    );
    expect(reads.map((r) => [r.register_type, r.unit_id, r.address, r.count])).toEqual([
      ['holding', undefined, 10, 3],
      ['holding', 2, 11, 1],
      ['input', undefined, 11, 1],
    ]);
  });

  it('sizes items by data type, covers overlaps once, and refuses impossible items', () => {
    const reads = planReads(
      [
        { register_type: 'holding', address: 0, data_type: 'float64' },
        { register_type: 'holding', address: 2, data_type: 'int16' },
        { register_type: 'holding', address: 4, data_type: 'uint32' },
      ],
      0,
    );
    expect(reads.map((r) => [r.address, r.count, r.items.length])).toEqual([[0, 6, 3]]);
    expect(() => planReads([holding(0, 126)], 0)).toThrow(RangeError);
    expect(() => planReads([holding(65535, 2)], 0)).toThrow(RangeError);
    expect(planReads([], 0)).toEqual([]);
  });
});
