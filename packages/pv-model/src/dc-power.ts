/** DC power of a PV array from in-plane irradiance and cell temperature. Pure; kW, W/m², °C. */

/** STC irradiance, W/m² (IEC 60904-3 reference spectrum, IEC 61215 standard test conditions). */
export const STC_IRRADIANCE_WM2 = 1000;
/** STC cell temperature, °C. */
export const STC_CELL_TEMPERATURE_C = 25;

/**
 * DC power at the maximum power point before any system losses, PVWatts v5 (Dobos 2014, "PVWatts Version 5
 * Manual", NREL/TP-6A20-62641, eq. 12; pvlib pvsystem.pvwatts_dc): P = P0 · G/1000 · (1 + γ (T − 25 °C)).
 * A null temperature means no temperature correction (as at 25 °C). Never negative; callers apply their
 * losses to the answer.
 */
export function pvwattsDcPowerKw(
  poaWm2: number,
  cellTemperatureC: number | null,
  capacityKwp: number,
  gammaPerK: number,
): number {
  const temperatureFactor =
    cellTemperatureC === null ? 1 : 1 + gammaPerK * (cellTemperatureC - STC_CELL_TEMPERATURE_C);
  return Math.max(capacityKwp * (poaWm2 / STC_IRRADIANCE_WM2) * temperatureFactor, 0);
}

/**
 * PVWatts v5's default system losses, 14 % (Dobos 2014, system losses: soiling 2, shading 3, mismatch 2, wiring 2,
 * connections 0.5, light-induced degradation 1.5, nameplate 1, age 0, availability 3 %, combined 14.08 %).
 */
export const PVWATTS_DEFAULT_SYSTEM_LOSS_FRACTION = 0.14;

/**
 * Expected DC power with PVWatts' lumped system losses (Dobos 2014, eq. 12 and "system losses"):
 * P_exp = P0 · G/1000 · (1 + γ (T − 25 °C)) · (1 − losses). Never negative.
 */
export function pvwattsExpectedPowerKw(
  poaWm2: number,
  cellTemperatureC: number | null,
  capacityKwp: number,
  gammaPerK: number,
  systemLossFraction: number,
): number {
  return Math.max(
    pvwattsDcPowerKw(poaWm2, cellTemperatureC, capacityKwp, gammaPerK) * (1 - systemLossFraction),
    0,
  );
}
