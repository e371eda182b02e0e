/**
 * Energy from cumulative counters (IEC 61724-1:2021, calculated parameters: electrical energy, here read as
 * the increase of the device's own energy register) and the plant's energy source choice.
 */
import type { EnergySource } from '@solar/shared';
import { counterDelta, floorBucket } from './telemetry-imports';

/** One reading of a cumulative energy counter (e.g. SunSpec WH or a meter's export register), in kWh. */
export interface CounterReading {
  tsMs: number;
  counterKwh: number;
}

function sorted(readings: readonly CounterReading[]): readonly CounterReading[] {
  for (let i = 1; i < readings.length; i++)
    if (readings[i]!.tsMs < readings[i - 1]!.tsMs) return [...readings].sort((a, b) => a.tsMs - b.tsMs);
  return readings;
}

/**
 * Energy accrued across the readings, the sum of counter steps; a drop is a counter reset and the new
 * value is the energy since the reset (the store's counterDelta rule). `previousKwh` is the last reading
 * before the first one given, so the step into the period is counted; without it the first reading only
 * sets the baseline.
 */
export function counterEnergyKwh(
  readings: readonly CounterReading[],
  previousKwh: number | null = null,
): number {
  let prev = previousKwh;
  let energyKwh = 0;
  for (const r of sorted(readings)) {
    energyKwh += counterDelta(prev, r.counterKwh);
    prev = r.counterKwh;
  }
  return energyKwh;
}

/**
 * Energy per fixed interval (e.g. 5 min), keyed by interval start (epoch-aligned, as the rollups are).
 * A step is credited to the interval of the reading that closes it, so after a communication gap the whole
 * catch-up lands in the first interval with data: the losses treat that interval as the end of the gap.
 */
export function intervalEnergiesKwh(
  readings: readonly CounterReading[],
  intervalMs: number,
  previousKwh: number | null = null,
): Map<number, number> {
  const out = new Map<number, number>();
  let prev = previousKwh;
  for (const r of sorted(readings)) {
    const key = floorBucket(r.tsMs, intervalMs);
    out.set(key, (out.get(key) ?? 0) + counterDelta(prev, r.counterKwh));
    prev = r.counterKwh;
  }
  return out;
}

/**
 * A period's energy from the `delta` of its rollup buckets (5m, 1h or 1d); null when no bucket has one,
 * so "no data" stays distinct from "0 kWh".
 */
export function sumDeltasKwh(deltasKwh: Iterable<number | null | undefined>): number | null {
  let total: number | null = null;
  for (const d of deltasKwh) if (d !== null && d !== undefined) total = (total ?? 0) + d;
  return total;
}

/**
 * A device's lifetime energy is its counter's newest reading, not a sum of deltas (the counter carries the
 * energy from before monitoring began). SunSpec reads an acc32 of 0 as "not implemented", so 0 or less
 * (or no reading) is unknown.
 */
export function lifetimeEnergyKwh(latestCounterKwh: number | null | undefined): number | null {
  return latestCounterKwh !== null && latestCounterKwh !== undefined && latestCounterKwh > 0
    ? latestCounterKwh
    : null;
}

export interface PlantEnergyInput {
  /** The grid meter's export energy for the period; null when the plant has no meter or it did not report. */
  meterExportKwh: number | null;
  /** Each inverter's energy for the period; null for one that did not report. */
  inverterEnergiesKwh: readonly (number | null)[];
}

export interface PlantEnergy {
  energyKwh: number | null;
  source: EnergySource;
}

/**
 * Plant energy as the issue defines it: the meter's export counter when present (it is what the grid was
 * paid for, after transformer and cable losses), else the sum of the inverters that reported.
 */
export function plantEnergy({ meterExportKwh, inverterEnergiesKwh }: PlantEnergyInput): PlantEnergy {
  if (meterExportKwh !== null) return { energyKwh: meterExportKwh, source: 'meter' };
  const total = sumDeltasKwh(inverterEnergiesKwh);
  return total === null ? { energyKwh: null, source: 'none' } : { energyKwh: total, source: 'inverters' };
}
