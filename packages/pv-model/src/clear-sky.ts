/** Clear-sky irradiance on the horizontal. Pure functions; degrees, W/m². */

const RAD = Math.PI / 180;

/**
 * Clear-sky global horizontal irradiance, Haurwitz model: GHI = 1098 · cos Z · exp(−0.057 / cos Z)
 * (Haurwitz 1945, J. Meteorol. 2:154; ranked among the best simple models by Reno, Hansen & Stein,
 * "Global Horizontal Irradiance Clear Sky Models", Sandia SAND2012-2389; pvlib clearsky.haurwitz). 0 with
 * the sun below the horizon.
 */
export function clearSkyGhiHaurwitz(zenithDeg: number): number {
  const cosZ = Math.cos(zenithDeg * RAD);
  if (cosZ <= 0) return 0;
  return 1098 * cosZ * Math.exp(-0.057 / cosZ);
}
