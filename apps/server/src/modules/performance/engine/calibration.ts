import { quantile } from './stats';

/**
 * A day reduced to what the PVWatts model (Dobos 2014, NREL/TP-6A20-62641 eq. 12) is linear in:
 * E = (1 − L) · Σ P0·G/1000·Δt + (1 − L)·γ · Σ P0·G/1000·(T_mod − 25)·Δt.
 */
export interface CalibrationDay {
  date: string;
  /** Measured AC energy, kWh. */
  energyKwh: number;
  /** Σ P0 · G_POA/1000 · Δt, kWh (the reference yield times P0). */
  referenceKwh: number;
  /** Σ P0 · G_POA/1000 · (T_mod − 25 °C) · Δt, kWh·K. */
  temperatureTermKwhK: number;
  /** Clipping loss of the day, kWh: a clipped day says nothing of the DC model. */
  clippingLossKwh?: number;
  /** A data-quality flag on the day. */
  excluded?: boolean;
}

/**
 * Turns a day's KPI sums into a CalibrationDay. The KPI engine stores the uncorrected irradiation and the
 * temperature-corrected reference Σ P0·G/1000·(1 + γ₀(T − 25))·Δt computed with the plant's current γ₀,
 * so the temperature term is (corrected − P0·H) / γ₀. Null when γ₀ is 0 (the term cannot be recovered).
 */
export function calibrationDayOf(input: {
  date: string;
  energyKwh: number | null;
  capacityKwp: number;
  irradiationKwhM2: number;
  correctedReferenceKwh: number;
  gammaPerK: number;
  clippingLossKwh?: number;
  excluded?: boolean;
}): CalibrationDay | null {
  if (input.energyKwh === null || input.gammaPerK === 0 || !(input.capacityKwp > 0)) return null;
  const referenceKwh = input.capacityKwp * input.irradiationKwhM2;
  return {
    date: input.date,
    energyKwh: input.energyKwh,
    referenceKwh,
    temperatureTermKwhK: (input.correctedReferenceKwh - referenceKwh) / input.gammaPerK,
    clippingLossKwh: input.clippingLossKwh,
    excluded: input.excluded,
  };
}

export interface CalibrationOptions {
  /** A clear day has at least this share of the window's 90th-percentile reference; 0.7 by default. */
  clearShare?: number;
  /** A day with clipping above this share of its energy is left out; 0.005 by default. */
  maxClippingShare?: number;
  /** Fewest clear days the fit needs; 5 by default. */
  minDays?: number;
}

export type CalibrationResult =
  | {
      status: 'ok';
      systemLossFraction: number;
      systemLossFractionSe: number;
      gammaPerK: number;
      gammaPerKSe: number;
      /** Clear days the fit used. */
      days: number;
      /** Root-mean-square residual, kWh per day. */
      rmseKwh: number;
    }
  | { status: 'insufficient_data'; days: number; daysNeeded: number };

/**
 * Fits a plant's lumped system loss L and power temperature coefficient γ from its clear days by ordinary
 * least squares on E = a·R + b·T (R the reference, T the temperature term; a = 1 − L, b = (1 − L)·γ), the
 * linear form of the PVWatts DC model that pvlib's `pvwatts_dc` computes (Dobos 2014). Clear days are those
 * with a reference of at least `clearShare` of the window's 90th percentile and no clipping (a simple
 * clear-period filter in the spirit of IEC 61724-1:2021 §7's data filtering and pvanalytics' clear-sky
 * screens); flagged days are left out. Standard errors come from σ̂²·(XᵀX)⁻¹ with σ̂² = RSS/(n − 2);
 * γ = b/a and its error by the delta method:
 * var γ = var b / a² + b²·var a / a⁴ − 2b·cov(a,b) / a³. A plant whose temperature barely varies over the
 * window gives a large γ error: the fit says so rather than guessing.
 */
export function fitPvwattsParameters(
  days: readonly CalibrationDay[],
  options: CalibrationOptions = {},
): CalibrationResult {
  const clearShare = options.clearShare ?? 0.7;
  const maxClipping = options.maxClippingShare ?? 0.005;
  const minDays = options.minDays ?? 5;
  const candidates = days.filter(
    (d) =>
      !d.excluded &&
      d.referenceKwh > 0 &&
      d.energyKwh > 0 &&
      (d.clippingLossKwh ?? 0) <= maxClipping * d.energyKwh,
  );
  const cut =
    clearShare *
    quantile(
      candidates.map((d) => d.referenceKwh),
      0.9,
    );
  const clear = candidates.filter((d) => d.referenceKwh >= cut);
  if (clear.length < Math.max(minDays, 3))
    return { status: 'insufficient_data', days: clear.length, daysNeeded: Math.max(minDays, 3) };
  let srr = 0;
  let srt = 0;
  let stt = 0;
  let sre = 0;
  let ste = 0;
  for (const d of clear) {
    srr += d.referenceKwh * d.referenceKwh;
    srt += d.referenceKwh * d.temperatureTermKwhK;
    stt += d.temperatureTermKwhK * d.temperatureTermKwhK;
    sre += d.referenceKwh * d.energyKwh;
    ste += d.temperatureTermKwhK * d.energyKwh;
  }
  const det = srr * stt - srt * srt;
  if (!(Math.abs(det) > 1e-12 * srr * stt))
    return { status: 'insufficient_data', days: clear.length, daysNeeded: Math.max(minDays, 3) };
  const a = (stt * sre - srt * ste) / det;
  const b = (srr * ste - srt * sre) / det;
  let rss = 0;
  for (const d of clear) rss += (d.energyKwh - a * d.referenceKwh - b * d.temperatureTermKwhK) ** 2;
  const sigma2 = rss / (clear.length - 2);
  const varA = (sigma2 * stt) / det;
  const varB = (sigma2 * srr) / det;
  const covAB = (-sigma2 * srt) / det;
  const gamma = b / a;
  const varGamma = varB / (a * a) + (b * b * varA) / a ** 4 - (2 * b * covAB) / a ** 3;
  return {
    status: 'ok',
    systemLossFraction: 1 - a,
    systemLossFractionSe: Math.sqrt(Math.max(0, varA)),
    gammaPerK: gamma,
    gammaPerKSe: Math.sqrt(Math.max(0, varGamma)),
    days: clear.length,
    rmseKwh: Math.sqrt(rss / clear.length),
  };
}

/** A design report's losses, as PVsyst and SAM list them. */
export interface DesignLosses {
  /** Each loss factor as a fraction (soiling, shading, mismatch, wiring, LID, availability …). */
  lossFractions: readonly number[];
  /** Inverter efficiency (European or CEC weighted), a fraction; null when already in the factors. */
  inverterEfficiency: number | null;
}

/**
 * The lumped system loss of a design: losses in series multiply, L = 1 − Π(1 − lᵢ) · η_inv, the way PVWatts
 * combines its loss categories (Dobos 2014, §3.5, eq. 1) with the inverter efficiency folded in because our
 * expected power has no separate inverter stage.
 */
export function lumpedSystemLoss(design: DesignLosses): number {
  let kept = design.inverterEfficiency ?? 1;
  for (const l of design.lossFractions) kept *= 1 - l;
  return 1 - kept;
}
