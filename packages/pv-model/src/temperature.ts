/** Module temperature from weather. Pure; °C, W/m², m/s. */

/** Faiman model defaults: U0 in W/(m²·K), U1 in W·s/(m³·K) (pvlib's and PVsyst's usual values). */
export const FAIMAN_U0 = 25;
export const FAIMAN_U1 = 6.84;

/**
 * Module temperature, Faiman model: Tm = Ta + POA / (U0 + U1 · ws) (Faiman 2008, "Assessing the outdoor
 * operating temperature of photovoltaic modules", Prog. Photovolt. 16:307; IEC 61853-2:2016 cl. 7; pvlib
 * temperature.faiman). A negative wind speed counts as calm.
 */
export function moduleTemperatureFaiman(
  poaWm2: number,
  ambientC: number,
  windSpeedMs: number,
  u0 = FAIMAN_U0,
  u1 = FAIMAN_U1,
): number {
  return ambientC + poaWm2 / (u0 + u1 * Math.max(windSpeedMs, 0));
}
