/**
 * Register codec for Modbus signals, generic and SunSpec: decode a value from 16-bit registers, scale it,
 * and encode the inverse (for the simulator). Pure functions, no I/O.
 *
 * Modbus carries each register big-endian (Modbus Application Protocol v1.1b3 §4.2); only the order of the
 * words of a multi-register value varies between devices: `big` = high word first (ABCD, what SunSpec
 * requires), `little` = low word first (CDAB).
 *
 * SunSpec marks a point a device does not implement with a sentinel value per type (SunSpec Information
 * Model Specification, "Unimplemented values"; the same table as pysunspec2's `mb.py`): int16 and sunssf
 * 0x8000, uint16/enum16/bitfield16/count 0xFFFF, int32 0x80000000, uint32/enum32/bitfield32 0xFFFFFFFF,
 * acc16/acc32/acc64 0 (an accumulator that has never counted carries no information), float32 NaN,
 * string: all NUL. Those decode to null.
 */
import type { DATA_TYPES, REGISTER_TYPES, WORD_ORDERS } from '../signals';
import type { SunSpecPointType } from './models';

export type ModbusRegisterType = (typeof REGISTER_TYPES)[number];
export type ModbusWordOrder = (typeof WORD_ORDERS)[number];
/** A value type the codec knows: our signal data types plus the SunSpec point types. */
export type RegisterValueType = (typeof DATA_TYPES)[number] | SunSpecPointType;

/** The Modbus limit for one Read Holding/Input Registers request (Modbus Application Protocol §6.3). */
export const MODBUS_MAX_READ_REGISTERS = 125;

const WORDS: Partial<Record<RegisterValueType, number>> = {
  int16: 1,
  uint16: 1,
  count: 1,
  acc16: 1,
  enum16: 1,
  bitfield16: 1,
  pad: 1,
  sunssf: 1,
  bool: 1,
  int32: 2,
  uint32: 2,
  acc32: 2,
  enum32: 2,
  bitfield32: 2,
  float32: 2,
  int64: 4,
  uint64: 4,
  acc64: 4,
  float64: 4,
};

/** Registers a value of `type` takes; a string needs its size given (SunSpec strings are 8 or 16). */
export function registerCount(type: RegisterValueType, stringSize?: number): number {
  if (type === 'string') {
    if (stringSize === undefined || !Number.isInteger(stringSize) || stringSize < 1) {
      throw new RangeError('A string needs its size in registers');
    }
    return stringSize;
  }
  const words = WORDS[type];
  if (words === undefined) throw new RangeError(`Unknown register value type ${type}`);
  return words;
}

export interface DecodeOptions {
  wordOrder?: ModbusWordOrder;
  /** Treat the SunSpec sentinels of int16/uint16/int32/uint32/int64/uint64 as null too (SunSpec types always do). */
  sunspec?: boolean;
  /** Where the value starts in `registers`. */
  offset?: number;
}

/** The sentinel, as an unsigned big-endian integer, of types whose sentinel applies only to SunSpec devices. */
const SUNSPEC_ONLY_SENTINEL: Partial<Record<RegisterValueType, bigint>> = {
  int16: 0x8000n,
  uint16: 0xffffn,
  int32: 0x8000_0000n,
  uint32: 0xffff_ffffn,
  int64: 0x8000_0000_0000_0000n,
  uint64: 0xffff_ffff_ffff_ffffn,
};
/** Sentinels of the SunSpec-only types: always "not implemented". */
const SUNSPEC_TYPE_SENTINEL: Partial<Record<RegisterValueType, bigint>> = {
  count: 0xffffn,
  enum16: 0xffffn,
  bitfield16: 0xffffn,
  sunssf: 0x8000n,
  acc16: 0n,
  enum32: 0xffff_ffffn,
  bitfield32: 0xffff_ffffn,
  acc32: 0n,
  acc64: 0n,
};

function checkRegister(word: number | undefined): number {
  if (word === undefined) throw new RangeError('Not enough registers for the value');
  if (!Number.isInteger(word) || word < 0 || word > 0xffff) throw new RangeError(`Not a register: ${word}`);
  return word;
}

/** The words of one value in big-endian order (high word first), whatever order the device sends. */
function bigEndianWords(
  registers: readonly number[],
  offset: number,
  words: number,
  order: ModbusWordOrder,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < words; i++) out.push(checkRegister(registers[offset + i]));
  return order === 'little' ? out.reverse() : out;
}

function toUnsigned(words: readonly number[]): bigint {
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

/** Decodes one numeric value; null for a not-implemented sentinel or NaN. See the module comment. */
export function decodeRegisters(
  registers: readonly number[],
  type: RegisterValueType,
  options: DecodeOptions = {},
): number | null {
  if (type === 'string') throw new RangeError('Decode strings with decodeString');
  const words = registerCount(type);
  const be = bigEndianWords(registers, options.offset ?? 0, words, options.wordOrder ?? 'big');
  const unsigned = toUnsigned(be);
  if (SUNSPEC_TYPE_SENTINEL[type] === unsigned) return null;
  if (options.sunspec && SUNSPEC_ONLY_SENTINEL[type] === unsigned) return null;
  const bytes = new DataView(new ArrayBuffer(words * 2));
  be.forEach((w, i) => bytes.setUint16(i * 2, w));
  switch (type) {
    case 'int16':
    case 'sunssf':
      return bytes.getInt16(0);
    case 'int32':
      return bytes.getInt32(0);
    case 'int64':
      return Number(bytes.getBigInt64(0));
    case 'float32':
    case 'float64': {
      const v = type === 'float32' ? bytes.getFloat32(0) : bytes.getFloat64(0);
      return Number.isNaN(v) ? null : v;
    }
    case 'bool':
      return unsigned === 0n ? 0 : 1;
    default:
      // Unsigned integers, counters, enums, bit fields, pad: exact up to 2^53.
      return Number(unsigned);
  }
}

/** Decodes a string of `size` registers (two ASCII/UTF-8 bytes each, high byte first); null when all NUL. */
export function decodeString(registers: readonly number[], size: number, offset = 0): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < size; i++) {
    const w = checkRegister(registers[offset + i]);
    bytes.push(w >> 8, w & 0xff);
  }
  const end = bytes.indexOf(0);
  const text = new TextDecoder().decode(new Uint8Array(end === -1 ? bytes : bytes.slice(0, end)));
  return text === '' ? null : text;
}

const INT_RANGE: Partial<Record<RegisterValueType, [bigint, bigint]>> = {
  int16: [-0x8000n, 0x7fffn],
  sunssf: [-0x8000n, 0x7fffn],
  int32: [-0x8000_0000n, 0x7fff_ffffn],
  int64: [-0x8000_0000_0000_0000n, 0x7fff_ffff_ffff_ffffn],
};

/** The registers of the sentinel a type uses for "not implemented" (what a simulator serves for null). */
function sentinelFor(type: RegisterValueType): bigint {
  const sentinel = SUNSPEC_TYPE_SENTINEL[type] ?? SUNSPEC_ONLY_SENTINEL[type];
  if (sentinel !== undefined) return sentinel;
  if (type === 'float32') return 0x7fc0_0000n;
  if (type === 'float64') return 0x7ff8_0000_0000_0000n;
  if (type === 'pad') return 0n;
  throw new RangeError(`${type} has no not-implemented value`);
}

/** Encodes one numeric value into registers, the inverse of decodeRegisters; null encodes the sentinel. */
export function encodeRegisters(
  value: number | null,
  type: RegisterValueType,
  wordOrder: ModbusWordOrder = 'big',
): number[] {
  if (type === 'string') throw new RangeError('Encode strings with encodeString');
  const words = registerCount(type);
  const bytes = new DataView(new ArrayBuffer(words * 2));
  if (value === null) {
    const sentinel = sentinelFor(type);
    for (let i = 0; i < words; i++) {
      bytes.setUint16(i * 2, Number((sentinel >> BigInt(16 * (words - 1 - i))) & 0xffffn));
    }
  } else if (type === 'float32') {
    bytes.setFloat32(0, value);
  } else if (type === 'float64') {
    bytes.setFloat64(0, value);
  } else {
    if (!Number.isInteger(value)) throw new RangeError(`${type} needs an integer, got ${value}`);
    const v = BigInt(type === 'bool' ? (value ? 1 : 0) : value);
    const [min, max] = INT_RANGE[type] ?? [0n, (1n << BigInt(16 * words)) - 1n];
    if (v < min || v > max) throw new RangeError(`${value} does not fit ${type}`);
    const unsigned = v < 0n ? (1n << BigInt(16 * words)) + v : v;
    for (let i = 0; i < words; i++) {
      bytes.setUint16(i * 2, Number((unsigned >> BigInt(16 * (words - 1 - i))) & 0xffffn));
    }
  }
  const be: number[] = [];
  for (let i = 0; i < words; i++) be.push(bytes.getUint16(i * 2));
  return wordOrder === 'little' ? be.reverse() : be;
}

/** Encodes a string into `size` registers, NUL-padded; null (or '') encodes all NUL (not implemented). */
export function encodeString(text: string | null, size: number): number[] {
  const bytes = new TextEncoder().encode(text ?? '');
  if (bytes.length > size * 2) throw new RangeError(`"${text}" does not fit ${size} registers`);
  const out: number[] = [];
  for (let i = 0; i < size; i++) out.push(((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
  return out;
}

/** The range of a SunSpec scale factor (SunSpec Information Model Specification: -10 … 10). */
export const SUNSPEC_SF_MIN = -10;
export const SUNSPEC_SF_MAX = 10;

export interface Scaling {
  /** Fixed multiplier to our unit, applied after the scale factor (e.g. 0.001 for W → kW). */
  scale?: number;
  /**
   * A SunSpec scale factor: the value is multiplied by 10^sf. Null (the scale-factor register read as
   * not implemented) makes the value null; undefined means no scale factor.
   */
  scaleFactor?: number | null;
}

/** Binary floating point adds noise in the 16th digit to decimal scaling; 15 digits is all a 32-bit raw value carries. */
const tidy = (v: number): number => Number(v.toPrecision(15));

/** Multiplies by 10^sf exactly for the integers involved (division keeps 12345 × 10^-1 at 1234.5). */
const pow10 = (v: number, sf: number): number => (sf < 0 ? v / 10 ** -sf : v * 10 ** sf);

/** A raw register value in our unit: raw × 10^sf × scale; null, or a scale factor outside -10…10, gives null. */
export function applyScale(raw: number | null, scaling: Scaling = {}): number | null {
  if (raw === null || scaling.scaleFactor === null) return null;
  const sf = scaling.scaleFactor ?? 0;
  if (!Number.isInteger(sf) || sf < SUNSPEC_SF_MIN || sf > SUNSPEC_SF_MAX) return null;
  return tidy(pow10(raw, sf) * (scaling.scale ?? 1));
}

/** The raw register value that applyScale turns into `value` (rounded to an integer, for the simulator). */
export function unapplyScale(value: number | null, scaling: Scaling = {}): number | null {
  if (value === null || scaling.scaleFactor === null) return null;
  return Math.round(pow10(value / (scaling.scale ?? 1), -(scaling.scaleFactor ?? 0)));
}

/** One thing to read: a signal, or a scale-factor register the signals depend on. */
export interface ReadItem {
  register_type: ModbusRegisterType;
  /** 0-based protocol address of the first register. */
  address: number;
  /** Registers (or coils/inputs for bit types) it takes; defaults from `data_type`, else 1. */
  count?: number;
  data_type?: RegisterValueType;
  /** The Modbus unit (slave) id, when one connection serves several units. */
  unit_id?: number;
}

export interface PlannedRead<T extends ReadItem> {
  register_type: ModbusRegisterType;
  unit_id: number | undefined;
  address: number;
  count: number;
  items: T[];
}

function itemCount(item: ReadItem): number {
  if (item.count !== undefined) return item.count;
  if (item.data_type === undefined || item.data_type === 'string') return 1;
  return registerCount(item.data_type);
}

/**
 * Groups items into the fewest reads: one read covers items of one register type and unit whose address
 * ranges are at most `maxGap` unused registers apart, up to `maxLength` registers (Modbus allows 125 per
 * request). Reading a few unused registers is cheaper than another round trip; some devices refuse reads
 * that touch unmapped registers, so maxGap 0 reads only adjacent ones. Greedy left to right is optimal here:
 * every read ends only where the next item would break the gap or the length limit.
 */
export function planReads<T extends ReadItem>(
  items: readonly T[],
  maxGap = 0,
  maxLength = MODBUS_MAX_READ_REGISTERS,
): PlannedRead<T>[] {
  const groups = new Map<string, { item: T; start: number; end: number }[]>();
  for (const item of items) {
    const count = itemCount(item);
    if (!Number.isInteger(count) || count < 1 || count > maxLength) {
      throw new RangeError(`An item of ${count} registers at ${item.address} cannot be read in one request`);
    }
    if (!Number.isInteger(item.address) || item.address < 0 || item.address + count > 0x10000) {
      throw new RangeError(`Address ${item.address} (+${count}) is outside 0…65535`);
    }
    const key = `${item.register_type}|${item.unit_id ?? ''}`;
    const group = groups.get(key) ?? [];
    group.push({ item, start: item.address, end: item.address + count });
    groups.set(key, group);
  }
  const reads: PlannedRead<T>[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => a.start - b.start || a.end - b.end);
    let current: PlannedRead<T> | undefined;
    for (const { item, start, end } of group) {
      const currentEnd = current ? current.address + current.count : 0;
      if (
        current &&
        start - currentEnd <= maxGap &&
        Math.max(currentEnd, end) - current.address <= maxLength
      ) {
        current.count = Math.max(currentEnd, end) - current.address;
        current.items.push(item);
      } else {
        current = {
          register_type: item.register_type,
          unit_id: item.unit_id,
          address: start,
          count: end - start,
          items: [item],
        };
        reads.push(current);
      }
    }
  }
  return reads.sort(
    (a, b) =>
      a.register_type.localeCompare(b.register_type) ||
      (a.unit_id ?? -1) - (b.unit_id ?? -1) ||
      a.address - b.address,
  );
}
