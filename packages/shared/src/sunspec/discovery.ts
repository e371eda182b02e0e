/**
 * Which SunSpec models a device offers: find the 'SunS' marker at one of the standard base addresses,
 * then walk the chain of models (ID, L, then L registers) up to the end model 0xFFFF (SunSpec Modbus,
 * "Device Modbus map"). Pure: the Modbus I/O is the caller's `readRegisters`.
 */
import type { DiscoveredModel } from './models';
import { SUNSPEC_BASE_ADDRESSES, SUNSPEC_END_MODEL_ID, SUNSPEC_MARKER } from './templates';

export interface SunSpecDiscovery {
  /** Address of the 'SunS' marker. */
  baseAddress: number;
  models: DiscoveredModel[];
}

/** Reads `count` holding registers from protocol address `address`. */
export type ReadRegisters = (address: number, count: number) => Promise<number[]>;

const ADDRESS_LIMIT = 0x10000;

async function readExactly(read: ReadRegisters, address: number, count: number): Promise<number[]> {
  const registers = await read(address, count);
  if (registers.length < count) {
    throw new Error(`Read of ${count} registers at ${address} answered ${registers.length}`);
  }
  return registers;
}

/**
 * Finds the chain and walks it; null when no base address holds the marker. A failed read at a base
 * counts as "no marker there" (devices answer Illegal Data Address for bases they do not use); a failed
 * read inside the chain, or a chain that runs past register 65535, throws.
 */
export async function discoverSunSpec(
  readRegisters: ReadRegisters,
  bases: readonly number[] = SUNSPEC_BASE_ADDRESSES,
): Promise<SunSpecDiscovery | null> {
  for (const baseAddress of bases) {
    let marker: number[];
    try {
      marker = await readExactly(readRegisters, baseAddress, SUNSPEC_MARKER.length);
    } catch {
      continue;
    }
    if (marker[0] !== SUNSPEC_MARKER[0] || marker[1] !== SUNSPEC_MARKER[1]) continue;
    const models: DiscoveredModel[] = [];
    let address = baseAddress + SUNSPEC_MARKER.length;
    for (;;) {
      if (address + 2 > ADDRESS_LIMIT) throw new Error(`SunSpec chain at ${baseAddress} has no end marker`);
      const [id, length] = (await readExactly(readRegisters, address, 2)) as [number, number];
      if (id === SUNSPEC_END_MODEL_ID) break;
      models.push({ id, address, length });
      address += 2 + length;
    }
    return { baseAddress, models };
  }
  return null;
}

/** The models a device offers, in chain order; empty when it shows no SunSpec marker. */
export async function discoverModels(
  readRegisters: ReadRegisters,
  bases: readonly number[] = SUNSPEC_BASE_ADDRESSES,
): Promise<DiscoveredModel[]> {
  return (await discoverSunSpec(readRegisters, bases))?.models ?? [];
}
