/**
 * Expected power and energy of a plant from its plane-of-array irradiance and module temperature, the
 * PVWatts DC model (Dobos 2014, "PVWatts Version 5 Manual", NREL/TP-6A20-62641, eq. 12) with its lumped
 * system losses:  P_exp = P0 × G_POA/1000 × (1 + γ (T_mod − 25 °C)) × (1 − system losses). The formulas
 * are @solar/pv-model's; this file holds the plant's defaults and the integration over intervals.
 * Not capped at the AC capacity: clipping is shown as a loss (losses.ts), not hidden in the expectation.
 */
import {
  moduleTemperatureFaiman,
  PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION,
  pvwattsExpectedPowerKw,
} from '@solar/pv-model';
import { DEFAULT_GAMMA_PER_K } from './yields';

/** PVWatts' default system losses, 14 % (pv-model PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION). */
export const DEFAULT_SYSTEM_LOSS_FRACTION = PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION;

/** The per-plant model parameters (editable on the plant form). */
export interface ExpectedPowerModel {
  /** P0, the DC capacity at STC. */
  capacityKwp: number;
  /** Power temperature coefficient per kelvin; −0.0037 by default. */
  gammaPerK?: number;
  /** Lumped system losses as a fraction (0.14 = 14 %). */
  systemLossFraction?: number;
}

/**
 * P_exp in kW for one irradiance and module temperature (PVWatts, Dobos 2014 eq. 12, plus its lumped
 * losses). A missing module temperature means no temperature correction (as at 25 °C); callers with an
 * ambient temperature should estimate it with estimateModuleTemperatureC instead.
 */
export function expectedPowerKw(
  poaWm2: number,
  moduleTemperatureC: number | null,
  model: ExpectedPowerModel,
): number {
  if (!(poaWm2 > 0) || !(model.capacityKwp > 0)) return 0;
  const gamma = model.gammaPerK ?? DEFAULT_GAMMA_PER_K;
  const losses = model.systemLossFraction ?? DEFAULT_SYSTEM_LOSS_FRACTION;
  return pvwattsExpectedPowerKw(poaWm2, moduleTemperatureC, model.capacityKwp, gamma, losses);
}

/** An interval's mean POA irradiance and module temperature. */
export interface WeatherInterval {
  poaWm2: number;
  moduleTemperatureC: number | null;
  durationMs: number;
}

/** Expected energy in kWh: Σ P_exp,i · Δt_i over the intervals. */
export function expectedEnergyKwh(intervals: Iterable<WeatherInterval>, model: ExpectedPowerModel): number {
  let kwh = 0;
  for (const iv of intervals)
    kwh += (expectedPowerKw(iv.poaWm2, iv.moduleTemperatureC, model) * iv.durationMs) / 3_600_000;
  return kwh;
}

/**
 * Module temperature from ambient temperature, irradiance and wind when the station has no module sensor:
 * the Faiman model (Faiman 2008, Prog. Photovolt. 16:307; IEC 61853-2) from @solar/pv-model, with 1 m/s when no wind is known.
 */
export function estimateModuleTemperatureC(poaWm2: number, ambientC: number, windSpeedMs = 1): number {
  return moduleTemperatureFaiman(Math.max(poaWm2, 0), ambientC, windSpeedMs);
}
