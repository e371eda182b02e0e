/**
 * Module degradation per inverter: each inverter's array loses a constant share of its power per year from
 * the commissioning date, the linear picture that the year-on-year method assumes and estimates (Jordan
 * et al. 2018, "Robust PV degradation methodology and application", IEEE J. Photovolt. 8(2) 525;
 * `rdtools.degradation.degradation_year_on_year`). Rates are drawn per inverter from the seed, within the
 * spread Jordan & Kurtz 2013 ("Photovoltaic degradation rates — an analytical review", Prog. Photovolt.
 * 21(1) 12) report for recent crystalline-silicon systems, so the truth differs from inverter to inverter.
 */
import { hashUniform } from './field-weather';
import { hashString } from './random';

const YEAR_MS = 365.25 * 86_400_000;
/** Yearly change of power drawn per inverter: −0.9 %/yr to −0.3 %/yr. */
export const DEGRADATION_RANGE_PER_YEAR: readonly [number, number] = [-0.009, -0.003];
/** A degraded array keeps at least this share of its power (the model is not meant for centuries). */
const DEGRADATION_FLOOR = 0.5;

/** The degradation rate (per year, negative: −0.005 is −0.5 %/yr) an inverter draws from the seed. */
export function degradationRateFromSeed(seed: number, plantKey: string, deviceKey: string): number {
  const [min, max] = DEGRADATION_RANGE_PER_YEAR;
  return min + (max - min) * hashUniform(hashString(`degradation:${seed}:${plantKey}:${deviceKey}`), 0);
}

/** The share of its first-year power an array keeps at `tsMs`: 1 + rate × years since commissioning. */
export function degradationFactor(ratePerYear: number, commissionedMs: number, tsMs: number): number {
  const years = Math.max((tsMs - commissionedMs) / YEAR_MS, 0);
  return Math.max(1 + ratePerYear * years, DEGRADATION_FLOOR);
}
