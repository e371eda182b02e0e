/**
 * An inverter's DC current split into its string inputs (`string{n}_dc_current`, `string{n}_dc_voltage`),
 * for inverters whose definition lists such signals. Each string has a fixed module mismatch (seeded, within
 * ±2 %: the spread of a sorted module batch). A string loss of the fault process (faults.ts,
 * `lostStringFraction`) takes whole strings out: round(fraction × strings), at least one, which then read a
 * leakage of about 0.01 A while the others carry the inverter's current; which strings go out is seeded per
 * inverter, so the same seed always opens the same string. The DC power already lost the fraction
 * (power.ts), so the strings' currents add up to the inverter's DC current.
 */
import { createRandom, hashString, uniform } from './random';

/** What an open string or a blown fuse still reads (measurement offset, leakage), in A. */
export const OPEN_STRING_CURRENT_A = 0.01;
/** The largest module mismatch between strings of one inverter (±). */
export const STRING_MISMATCH = 0.02;

export interface StringLayout {
  count: number;
  /** Each string's relative current (mean 1). */
  mismatch: number[];
  /** The string that goes out first on a string loss (0-based); the next ones follow it. */
  firstOut: number;
}

/** The strings of an inverter with `count` inputs, seeded by the simulation's seed and the device's key. */
export function stringLayout(seed: number, deviceKey: string, count: number): StringLayout {
  const random = createRandom(hashString(`strings:${seed}:${deviceKey}`));
  const raw = Array.from({ length: count }, () => 1 + uniform(random, -STRING_MISMATCH, STRING_MISMATCH));
  const mean = raw.reduce((a, b) => a + b, 0) / Math.max(1, count);
  return { count, mismatch: raw.map((m) => m / mean), firstOut: Math.floor(random() * count) };
}

/** Which strings (0-based) a string loss of `fraction` takes out. */
export function openStrings(layout: StringLayout, fraction: number): Set<number> {
  if (fraction <= 0 || layout.count === 0) return new Set();
  const out = Math.min(layout.count - 1, Math.max(1, Math.round(fraction * layout.count)));
  return new Set(Array.from({ length: out }, (_, k) => (layout.firstOut + k) % layout.count));
}

/** Each string's current (A) when the inverter draws `dcCurrentA` with `fraction` of its strings lost. */
export function stringCurrents(layout: StringLayout, dcCurrentA: number, fraction: number): number[] {
  const open = openStrings(layout, fraction);
  const live = layout.mismatch.reduce((sum, m, i) => (open.has(i) ? sum : sum + m), 0);
  return layout.mismatch.map((m, i) =>
    open.has(i) ? (dcCurrentA > 0 ? OPEN_STRING_CURRENT_A : 0) : live > 0 ? (dcCurrentA * m) / live : 0,
  );
}

/** The number of string inputs a device's signals name (`string{n}_dc_current`): the highest n. */
export function stringCount(keys: readonly string[]): number {
  let count = 0;
  for (const key of keys) {
    const m = /^string(\d{1,2})_dc_current$/.exec(key);
    if (m) count = Math.max(count, Number(m[1]));
  }
  return count;
}
