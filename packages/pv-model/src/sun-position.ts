/**
 * Where the sun stands, and the irradiance at the top of the atmosphere. Pure functions.
 * Angles in degrees, azimuths clockwise from north (0 = N, 180 = S), irradiance in W/m².
 */
import { getPosition } from 'suncalc';

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

/**
 * Where the sun stands at `tsMs` seen from latitude/longitude: suncalc 2, i.e. Meeus, "Astronomical
 * Algorithms" (2nd ed. 1998) ch. 25 low-accuracy solar coordinates (≈ 0.01°) and ch. 12 sidereal time,
 * geocentric, refracted with Meeus eq. 16.4 for a standard atmosphere; not NREL SPA (Reda & Andreas 2004),
 * which it matches to about 0.01° (sun-position.test.ts).
 */
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
