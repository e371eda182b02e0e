/** DC and AC power of a PV array and its inverter. Pure functions; kW, W/m², °C. */
import { pvwattsDcPowerKw } from '@solar/pv-model';

/** A typical crystalline-silicon power temperature coefficient, per kelvin. */
export const GAMMA_PDC_PER_K = -0.004;

/** The simulated arrays' lumped DC losses (mismatch, wiring, light-induced degradation); soiling is apart (./soiling.ts). */
export const DC_LOSS_FRACTION = 0.08;
/** The simulated inverters' nominal (European-weighted-like) efficiency. */
export const NOMINAL_INVERTER_EFFICIENCY = 0.98;

/**
 * DC power at the maximum power point, PVWatts model: P = P_STC · POA/1000 · (1 + γ (Tc − 25)) (pv-model
 * pvwattsDcPowerKw, Dobos 2014 eq. 12), less the simulated array's lumped losses (mismatch, wiring) and
 * any strings that are out: the simulator's own truth, which the KPI model does not know. Soiling and
 * degradation come in through the caller (a lower POA reaching the cells, a smaller capacity).
 */
export function dcPowerKw(
  poaWm2: number,
  cellTemperatureC: number,
  capacityKwp: number,
  { gammaPerK = GAMMA_PDC_PER_K, lossFraction = DC_LOSS_FRACTION, lostStringFraction = 0 } = {},
): number {
  if (poaWm2 <= 0) return 0;
  const p =
    pvwattsDcPowerKw(poaWm2, cellTemperatureC, capacityKwp, gammaPerK) *
    (1 - lossFraction) *
    (1 - lostStringFraction);
  return Math.max(p, 0);
}

/** PVWatts' reference efficiency the curve below was fitted at. */
const PVWATTS_REFERENCE_EFFICIENCY = 0.9637;

/**
 * Inverter efficiency at DC load ζ = P_dc / P_dc0, PVWatts v5 curve (Dobos 2014, eq. 16):
 * η = η_nom/η_ref · (−0.0162 ζ − 0.0059/ζ + 0.9858), scaled to a nominal efficiency; it rises steeply from
 * 0 at very low load, peaks (≈ η_nom + 0.3 %) near 60 % load and falls slightly towards full load.
 */
export function inverterEfficiency(
  dcLoadFraction: number,
  nominalEfficiency = NOMINAL_INVERTER_EFFICIENCY,
): number {
  if (dcLoadFraction <= 0) return 0;
  const eta =
    (nominalEfficiency / PVWATTS_REFERENCE_EFFICIENCY) *
    (-0.0162 * dcLoadFraction - 0.0059 / dcLoadFraction + 0.9858);
  return Math.max(eta, 0);
}

export interface AcOutput {
  acKw: number;
  /** Limited to the rated AC power (the DC side could give more). */
  clipped: boolean;
  efficiency: number;
}

/**
 * AC output of an inverter fed `dcKw`: the efficiency curve, clipped at the rated AC power. Below the
 * start-up threshold (0.5 % of rating) the inverter does not feed in at all.
 */
export function inverterAcPower(
  dcKw: number,
  ratedAcKw: number,
  nominalEfficiency = NOMINAL_INVERTER_EFFICIENCY,
): AcOutput {
  const dc0 = ratedAcKw / nominalEfficiency;
  if (dcKw < 0.005 * dc0) return { acKw: 0, clipped: false, efficiency: 0 };
  const efficiency = inverterEfficiency(dcKw / dc0, nominalEfficiency);
  const ac = dcKw * efficiency;
  if (ac >= ratedAcKw) return { acKw: ratedAcKw, clipped: true, efficiency: ratedAcKw / dcKw };
  return { acKw: ac, clipped: false, efficiency };
}

/**
 * DC voltage at the maximum power point of a string: falls with temperature (β ≈ −0.35 %/K) and
 * logarithmically with irradiance (the diode equation's V ∝ ln I). Answers the open-circuit voltage
 * (≈ 1.2 × Vmp) when the inverter draws no current, and 0 in the dark.
 */
export function dcVoltage(
  poaWm2: number,
  cellTemperatureC: number,
  { vmpStc = 620, betaPerK = -0.0035, openCircuit = false } = {},
): number {
  if (poaWm2 < 1) return 0;
  const thermal = 1 + betaPerK * (cellTemperatureC - 25);
  const light = 1 + 0.045 * Math.log(Math.min(poaWm2, 1400) / 1000);
  const v = vmpStc * thermal * Math.max(light, 0.6);
  return openCircuit ? v * 1.2 : v;
}
