/**
 * Sun position, clear-sky irradiance and its transposition to the plane of the modules. Pure functions.
 * Angles in degrees, azimuths clockwise from north (0 = N, 180 = S), irradiance in W/m².
 */
import { getPosition } from 'suncalc';

const RAD = Math.PI / 180;
const DAY_MS = 86_400_000;

/** The solar constant (Kopp & Lean 2011, Geophys. Res. Lett. 38, L01706). */
export const SOLAR_CONSTANT_WM2 = 1361;

export interface SunPosition {
  /** Apparent elevation above the horizon (refraction-corrected); negative at night. */
  elevationDeg: number;
  zenithDeg: number;
  /** Clockwise from north. */
  azimuthDeg: number;
}

/** Where the sun stands at `tsMs` seen from latitude/longitude (suncalc, after Astronomy Answers). */
export function sunPosition(tsMs: number, latitude: number, longitude: number): SunPosition {
  const { altitude, azimuth } = getPosition(new Date(tsMs), latitude, longitude);
  return { elevationDeg: altitude, zenithDeg: 90 - altitude, azimuthDeg: azimuth };
}

/** Day of the year, 1…366, of a UTC instant. */
export function dayOfYear(tsMs: number): number {
  const d = new Date(tsMs);
  return Math.floor((tsMs - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** Extraterrestrial normal irradiance: the solar constant corrected for the Earth–Sun distance (Duffie & Beckman eq. 1.4.1a). */
export function extraterrestrialNormal(doy: number): number {
  return SOLAR_CONSTANT_WM2 * (1 + 0.033 * Math.cos((2 * Math.PI * doy) / 365));
}

/**
 * Clear-sky global horizontal irradiance, Haurwitz model: GHI = 1098 · cos Z · exp(−0.057 / cos Z)
 * (Haurwitz 1945, J. Meteorol. 2:154; ranked among the best simple models by Reno, Hansen & Stein,
 * "Global Horizontal Irradiance Clear Sky Models", Sandia SAND2012-2389). 0 with the sun below the horizon.
 */
export function clearSkyGhiHaurwitz(zenithDeg: number): number {
  const cosZ = Math.cos(zenithDeg * RAD);
  if (cosZ <= 0) return 0;
  return 1098 * cosZ * Math.exp(-0.057 / cosZ);
}

/**
 * Diffuse fraction of GHI from the clearness index kt, Erbs, Klein & Duffie correlation
 * (Solar Energy 28:293, 1982; Duffie & Beckman eq. 2.10.1).
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

/** Splits GHI into direct normal and diffuse horizontal with the Erbs correlation. */
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

/** Cosine of the angle of incidence of the beam on a plane tilted `tiltDeg` facing `azimuthDeg`. */
export function cosAngleOfIncidence(sun: SunPosition, tiltDeg: number, azimuthDeg: number): number {
  const z = sun.zenithDeg * RAD;
  const b = tiltDeg * RAD;
  return (
    Math.cos(z) * Math.cos(b) + Math.sin(z) * Math.sin(b) * Math.cos((sun.azimuthDeg - azimuthDeg) * RAD)
  );
}

/**
 * Plane-of-array irradiance with the isotropic sky model (Liu & Jordan 1963; Duffie & Beckman eq. 2.15.1):
 * POA = DNI · max(cos θ, 0) + DHI · (1 + cos β)/2 + GHI · ρ · (1 − cos β)/2.
 */
export function planeOfArrayIsotropic(
  components: IrradianceComponents,
  sun: SunPosition,
  tiltDeg: number,
  azimuthDeg: number,
  albedo = 0.2,
): number {
  if (components.ghi <= 0) return 0;
  const cosB = Math.cos(tiltDeg * RAD);
  const beam = components.dni * Math.max(cosAngleOfIncidence(sun, tiltDeg, azimuthDeg), 0);
  const sky = (components.dhi * (1 + cosB)) / 2;
  const ground = (components.ghi * albedo * (1 - cosB)) / 2;
  return beam + sky + ground;
}
