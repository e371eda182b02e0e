/** Decomposition of global horizontal irradiance into direct normal and diffuse horizontal. Pure; W/m². */
import { extraterrestrialNormal } from './sun-position';

const RAD = Math.PI / 180;

/**
 * Diffuse fraction of GHI from the clearness index kt, Erbs, Klein & Duffie correlation
 * (Solar Energy 28:293, 1982; Duffie & Beckman eq. 2.10.1; pvlib irradiance.erbs).
 */
export function erbsDiffuseFraction(kt: number): number {
  if (kt <= 0.22) return 1 - 0.09 * kt;
  if (kt <= 0.8) return 0.9511 - 0.1604 * kt + 4.388 * kt ** 2 - 16.638 * kt ** 3 + 12.336 * kt ** 4;
  return 0.165;
}

export interface IrradianceComponents {
  ghi: number;
  /** Direct normal. */
  dni: number;
  /** Diffuse horizontal. */
  dhi: number;
}

/**
 * Splits GHI into direct normal and diffuse horizontal with the Erbs correlation (Erbs et al. 1982), kt
 * against extraterrestrialNormal (its own Earth–Sun distance term, not pvlib's Spencer 1971 series).
 */
export function decomposeGhi(ghi: number, zenithDeg: number, doy: number): IrradianceComponents {
  const cosZ = Math.cos(zenithDeg * RAD);
  if (ghi <= 0 || cosZ <= 0) return { ghi: 0, dni: 0, dhi: 0 };
  const e0 = extraterrestrialNormal(doy);
  // Near the horizon cos Z → 0 makes kt and DNI unstable; 0.065 (~86°) is pvlib's usual floor.
  const cosZSafe = Math.max(cosZ, 0.065);
  const kt = Math.min(ghi / (e0 * cosZSafe), 1);
  const dhi = ghi * erbsDiffuseFraction(kt);
  const dni = Math.min(Math.max((ghi - dhi) / cosZSafe, 0), e0);
  return { ghi, dni, dhi };
}
