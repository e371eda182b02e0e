/**
 * Yields and performance ratios of IEC 61724-1:2021 ("Photovoltaic system performance — Part 1:
 * Monitoring"): irradiation H, final yield Yf, reference yield Yr, PR = Yf / Yr, and the temperature-
 * corrected PR of NREL's weather-corrected PR (Dierauf et al., 2013, NREL/TP-5200-57991).
 * Yields are in kWh/kWp, which is the same number as hours at the reference irradiance.
 */

/** Reference irradiance G_ref of IEC 61724-1 (1 kW/m², the STC irradiance). */
export const G_REF_KW_M2 = 1;
/** STC irradiance in W/m². */
export const G_STC_WM2 = 1000;
/** STC cell temperature, °C. */
export const T_STC_C = 25;
/** The default power temperature coefficient γ, per kelvin (crystalline silicon). */
export const DEFAULT_GAMMA_PER_K = -0.0037;

const MS_PER_H = 3_600_000;

/** An irradiance value (instantaneous or the mean of an interval) and the time it stands for. */
export interface IrradianceSample {
  irradianceWm2: number;
  durationMs: number;
}

/**
 * Irradiation H = Σ G_k · τ_k in kWh/m² (IEC 61724-1:2021, calculated parameters: irradiation). Negative
 * readings (a thermopile pyranometer's night-time offset) count as 0 rather than cancelling daylight.
 */
export function irradiationKwhM2(samples: Iterable<IrradianceSample>): number {
  let whM2 = 0;
  for (const s of samples)
    if (s.irradianceWm2 > 0 && s.durationMs > 0) whM2 += (s.irradianceWm2 * s.durationMs) / MS_PER_H;
  return whM2 / 1000;
}

/** Final system yield Yf = E_AC / P0 in kWh/kWp, P0 the DC capacity (IEC 61724-1:2021, yields); null without a capacity. */
export function finalYieldKwhKwp(energyKwh: number | null, capacityKwp: number | null): number | null {
  if (energyKwh === null || capacityKwp === null || !(capacityKwp > 0)) return null;
  return energyKwh / capacityKwp;
}

/** Reference yield Yr = H_POA / G_ref in kWh/kWp (IEC 61724-1:2021, yields), G_ref = 1 kW/m². */
export function referenceYieldKwhKwp(poaIrradiationKwhM2: number, gRefKwM2 = G_REF_KW_M2): number {
  return poaIrradiationKwhM2 / gRefKwM2;
}

/** Performance ratio PR = Yf / Yr (IEC 61724-1:2021, performance ratio); null when there was no sun to judge by. */
export function performanceRatio(
  finalYieldKwhKwp: number | null,
  referenceYieldKwhKwp: number,
): number | null {
  if (finalYieldKwhKwp === null || !(referenceYieldKwhKwp > 0)) return null;
  return finalYieldKwhKwp / referenceYieldKwhKwp;
}

/** One interval of a plant's day: its AC energy, mean POA irradiance and mean module temperature. */
export interface PrInterval {
  /** Null when the interval has no energy data (a communication gap). */
  energyKwh: number | null;
  poaWm2: number;
  /** Back-of-module temperature; null when the station did not report it. */
  moduleTemperatureC: number | null;
  durationMs: number;
}

export interface TemperatureCorrectionOptions {
  capacityKwp: number;
  /** Power temperature coefficient, per kelvin (negative). */
  gammaPerK?: number;
  /** Temperature the PR is corrected to; 25 °C (STC) by default, see temperatureCorrectedPr. */
  referenceTemperatureC?: number;
}

/**
 * Temperature-corrected PR, NREL's weather-corrected PR (Dierauf et al., 2013):
 * PR_corr = Σ E_AC,i / Σ (P0 · G_POA,i/1000 · (1 + γ (T_mod,i − T_ref)) · Δt_i), summed over intervals, so
 * each interval weighs by its irradiance. T_ref is 25 °C, as in IEC 61724-1:2021's temperature-corrected
 * PR (to STC): the result is then independent of season and of a year of site weather we may not have,
 * and equals actual / (expected power before system losses), the same model as expected-power.ts.
 * Dierauf's own variant corrects to the year's irradiance-weighted average cell temperature instead (so
 * the annual PR_corr equals the annual PR); pass `referenceTemperatureC` from
 * irradianceWeightedTemperatureC over a year to get it. Intervals lacking energy or module temperature
 * are left out of both sums (Dierauf's data filtering). Null when nothing is left.
 * Dierauf corrects with cell temperature; we use the measured module temperature, as IEC 61724-1 and the
 * issue do (the back-of-module sensor reads a few kelvin below the cells at high irradiance).
 */
export function temperatureCorrectedPr(
  intervals: Iterable<PrInterval>,
  options: TemperatureCorrectionOptions,
): number | null {
  const kept: PrInterval[] = [];
  let actualKwh = 0;
  for (const iv of intervals) {
    if (iv.energyKwh === null || iv.moduleTemperatureC === null) continue;
    kept.push(iv);
    actualKwh += iv.energyKwh;
  }
  const referenceKwh = temperatureCorrectedReferenceKwh(kept, options);
  return referenceKwh > 0 ? actualKwh / referenceKwh : null;
}

/**
 * The denominator of the temperature-corrected PR, Σ P0 · G_POA,i/1000 · (1 + γ (T_mod,i − T_ref)) · Δt_i
 * in kWh. Additive over days, so a month's PR_corr is Σ E / Σ of this (never a mean of daily ratios). An
 * interval without a module temperature is taken at T_ref (no correction).
 */
export function temperatureCorrectedReferenceKwh(
  intervals: Iterable<Omit<PrInterval, 'energyKwh'>>,
  {
    capacityKwp,
    gammaPerK = DEFAULT_GAMMA_PER_K,
    referenceTemperatureC = T_STC_C,
  }: TemperatureCorrectionOptions,
): number {
  if (!(capacityKwp > 0)) return 0;
  let kwh = 0;
  for (const iv of intervals) {
    if (!(iv.poaWm2 > 0)) continue;
    const correction =
      iv.moduleTemperatureC === null ? 1 : 1 + gammaPerK * (iv.moduleTemperatureC - referenceTemperatureC);
    kwh += capacityKwp * (iv.poaWm2 / G_STC_WM2) * correction * (iv.durationMs / MS_PER_H);
  }
  return kwh;
}

/**
 * Irradiance-weighted mean module temperature Σ G_i T_i Δt_i / Σ G_i Δt_i (Dierauf et al., 2013:
 * T_cell_typ_avg), the reference temperature of Dierauf's variant; null without sun.
 */
export function irradianceWeightedTemperatureC(intervals: Iterable<PrInterval>): number | null {
  let weighted = 0;
  let weight = 0;
  for (const iv of intervals) {
    if (iv.moduleTemperatureC === null || !(iv.poaWm2 > 0)) continue;
    weighted += iv.poaWm2 * iv.durationMs * iv.moduleTemperatureC;
    weight += iv.poaWm2 * iv.durationMs;
  }
  return weight > 0 ? weighted / weight : null;
}
