/**
 * A device's register map as reads and back: which registers to read for its signals (adjacent ones in
 * one request, with the SunSpec scale-factor registers they need), and each signal's value from the
 * answers, a vendor's state read through the signal's value map. Pure; the poller does the I/O.
 */
import {
  applyScale,
  decodeRegisters,
  mapSignalValue,
  planReads,
  registerCount,
  type ModbusWordOrder,
  type PlannedRead,
  type ReadItem,
  type RegisterValueType,
} from '@solar/shared';

/** Unused registers a read of SunSpec points may span rather than start another request. */
export const SUNSPEC_MAX_GAP = 125;

/** A signal as the poller needs it (signals table columns). */
export interface PolledSignal {
  id: number;
  key: string;
  data_type: string;
  register_type: string | null;
  address: number | null;
  word_order: string | null;
  scale: number;
  scale_factor_address: number | null;
  sunspec_type: string | null;
  /** A vendor's state value → the console's (a register template's `value_map`); absent: as read. */
  value_map?: Readonly<Record<string, number>> | null;
}

/** Register types and value types the poller reads; others (coils, strings, bool) are left out. */
const READABLE_REGISTERS = new Set(['holding', 'input']);
const READABLE_TYPES = new Set<string>([
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'float32',
  'float64',
  // SunSpec point types (signals.sunspec_type).
  'count',
  'acc16',
  'enum16',
  'bitfield16',
  'sunssf',
  'acc32',
  'enum32',
  'bitfield32',
  'acc64',
]);

interface SignalItem extends ReadItem {
  kind: 'signal';
  signal: PolledSignal;
  valueType: RegisterValueType;
}
interface ScaleFactorItem extends ReadItem {
  kind: 'sf';
}
export type MapItem = SignalItem | ScaleFactorItem;

export interface PollPlan {
  reads: PlannedRead<MapItem>[];
  /** Signals that cannot be polled (no address, coil, string…), by key, for one log line. */
  skipped: string[];
}

/** The reads that cover `signals` with the fewest requests (≤125 registers each, adjacent registers only). */
export function planPoll(signals: readonly PolledSignal[], unitId: number): PollPlan {
  const items: MapItem[] = [];
  const skipped: string[] = [];
  const scaleFactors = new Set<string>();
  for (const signal of signals) {
    const valueType = (signal.sunspec_type ?? signal.data_type) as RegisterValueType;
    if (
      signal.register_type === null ||
      !READABLE_REGISTERS.has(signal.register_type) ||
      signal.address === null ||
      !READABLE_TYPES.has(valueType) ||
      signal.address + registerCount(valueType) > 0x10000
    ) {
      skipped.push(signal.key);
      continue;
    }
    const register_type = signal.register_type as 'holding' | 'input';
    items.push({
      kind: 'signal',
      signal,
      valueType,
      register_type,
      address: signal.address,
      data_type: valueType,
      unit_id: unitId,
    });
    if (signal.scale_factor_address !== null) {
      const key = `${register_type}|${signal.scale_factor_address}`;
      if (!scaleFactors.has(key)) {
        scaleFactors.add(key);
        items.push({
          kind: 'sf',
          register_type,
          address: signal.scale_factor_address,
          count: 1,
          data_type: 'sunssf',
          unit_id: unitId,
        });
      }
    }
  }
  // A SunSpec chain holds every register from its marker to its end model, so reads may span the unmapped
  // points between signals; a plain register map may refuse that, so only adjacent registers go together.
  const sunspec = items.filter((i) => i.kind === 'sf' || i.signal.sunspec_type !== null);
  const plain = items.filter((i) => i.kind === 'signal' && i.signal.sunspec_type === null);
  return {
    reads: [...planReads(plain), ...planReads(sunspec, SUNSPEC_MAX_GAP)],
    skipped,
  };
}

/** One signal's value in its unit; null when not implemented, not read, or without its scale factor. */
export interface DecodedValue {
  signal: PolledSignal;
  value: number | null;
}

/**
 * Decodes every signal of a plan from the registers each read answered (undefined for a read that
 * failed): value = raw × 10^sf × scale, sf from the signal's scale-factor register when it has one.
 */
export function decodePoll(
  plan: PollPlan,
  answers: readonly (readonly number[] | undefined)[],
): DecodedValue[] {
  const sf = new Map<string, number | null>();
  plan.reads.forEach((read, i) => {
    const registers = answers[i];
    for (const item of read.items) {
      if (item.kind !== 'sf') continue;
      const key = `${item.register_type}|${item.address}`;
      sf.set(
        key,
        registers ? decodeRegisters(registers, 'sunssf', { offset: item.address - read.address }) : null,
      );
    }
  });
  const out: DecodedValue[] = [];
  plan.reads.forEach((read, i) => {
    const registers = answers[i];
    for (const item of read.items) {
      if (item.kind !== 'signal') continue;
      const { signal } = item;
      if (!registers) {
        out.push({ signal, value: null });
        continue;
      }
      const raw = decodeRegisters(registers, item.valueType, {
        offset: item.address - read.address,
        wordOrder: (signal.word_order ?? 'big') as ModbusWordOrder,
        sunspec: signal.sunspec_type !== null,
      });
      const scaleFactor =
        signal.scale_factor_address === null
          ? undefined
          : (sf.get(`${item.register_type}|${signal.scale_factor_address}`) ?? null);
      const scaled = applyScale(raw, { scale: signal.scale, scaleFactor });
      const value = scaled !== null && Number.isFinite(scaled) ? scaled : null;
      out.push({ signal, value: mapSignalValue(value, signal.value_map) });
    }
  });
  return out;
}

/**
 * A signal's value map as the database stores it (JSON text written when a register template is applied),
 * for the console's poller and the edge agent's configuration alike; one that does not parse maps nothing.
 */
export function parseStoredValueMap(json: string | null): Readonly<Record<string, number>> | null {
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, number] => Number.isFinite(e[1])),
    );
  } catch {
    return {};
  }
}
