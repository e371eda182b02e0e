import {
  clearSkyGhiHaurwitz,
  dayOfYear,
  decomposeGhi,
  planeOfArrayIsotropic,
  sunPosition,
} from '@solar/pv-model';
import type { PlantDay } from './types';

/** The grid the sun is computed on: fine enough for 1–15 min readings, cheap enough for a year of days. */
export const SUN_STEP_MS = 5 * 60_000;
/** The grid reaches this far beyond the day on both sides, so a profile can be shifted by up to ±3 h. */
export const SUN_MARGIN_MS = 3 * 3_600_000;

/** The sun over one plant day, on a 5-minute grid from dayStart − 3 h to dayEnd + 3 h. */
export interface SunDay {
  gridStartMs: number;
  elevationDeg: Float64Array;
  /** Clear-sky GHI (Haurwitz), W/m². */
  clearGhiWm2: Float64Array;
  /**
   * Clear-sky plane-of-array irradiance (Haurwitz GHI, Erbs split, isotropic transposition) when the tilt is
   * known; otherwise the irradiance on a plane facing the sun (DNI + DHI), an upper bound for any plane.
   */
  clearPoaWm2: Float64Array;
  /** Sunrise and sunset (first and last grid point with the sun above the horizon) and daylight length. */
  sunriseMs: number;
  sunsetMs: number;
  daylightHours: number;
  /** Solar noon: the grid point of highest elevation inside the day. */
  solarNoonMs: number;
}

const cache = new WeakMap<PlantDay, SunDay>();

/**
 * The sun's elevation and clear-sky irradiance over the plant's day, computed once per PlantDay object and
 * shared by every detector and series of that day (a year of 100 signals would otherwise call the sun
 * position ten million times).
 */
export function sunDay(plant: PlantDay): SunDay {
  const hit = cache.get(plant);
  if (hit) return hit;
  const { latitude, longitude } = plant;
  // detectors/index.ts runs no sun-based check for a plant without a location: reaching here is a bug.
  if (latitude === null || longitude === null)
    throw new Error(`sunDay: plant ${plant.plantId} has no location, so no sun`);
  const gridStartMs = plant.dayStartMs - SUN_MARGIN_MS;
  const n = Math.ceil((plant.dayEndMs + SUN_MARGIN_MS - gridStartMs) / SUN_STEP_MS) + 1;
  const elevationDeg = new Float64Array(n);
  const clearGhiWm2 = new Float64Array(n);
  const clearPoaWm2 = new Float64Array(n);
  const doy = dayOfYear(plant.dayStartMs + 12 * 3_600_000);
  let sunriseMs = NaN;
  let sunsetMs = NaN;
  let solarNoonMs = NaN;
  let best = -Infinity;
  for (let i = 0; i < n; i++) {
    const ts = gridStartMs + i * SUN_STEP_MS;
    const sun = sunPosition(ts, latitude, longitude);
    elevationDeg[i] = sun.elevationDeg;
    const ghi = clearSkyGhiHaurwitz(sun.zenithDeg);
    clearGhiWm2[i] = ghi;
    if (ghi > 0) {
      const parts = decomposeGhi(ghi, sun.zenithDeg, doy);
      clearPoaWm2[i] =
        plant.tiltDeg !== null && plant.azimuthDeg !== null
          ? planeOfArrayIsotropic(parts, sun, plant.tiltDeg, plant.azimuthDeg)
          : parts.dni + parts.dhi;
    }
    const inDay = ts >= plant.dayStartMs && ts < plant.dayEndMs;
    if (inDay && sun.elevationDeg > 0) {
      if (Number.isNaN(sunriseMs)) sunriseMs = ts;
      sunsetMs = ts;
    }
    if (inDay && sun.elevationDeg > best) {
      best = sun.elevationDeg;
      solarNoonMs = ts;
    }
  }
  const daylightHours = Number.isNaN(sunriseMs) ? 0 : (sunsetMs - sunriseMs + SUN_STEP_MS) / 3_600_000;
  const day: SunDay = {
    gridStartMs,
    elevationDeg,
    clearGhiWm2,
    clearPoaWm2,
    sunriseMs,
    sunsetMs,
    daylightHours,
    solarNoonMs,
  };
  cache.set(plant, day);
  return day;
}

/** The grid index nearest to `ts`, clamped to the grid. */
export function sunIndex(day: SunDay, ts: number): number {
  const i = Math.round((ts - day.gridStartMs) / SUN_STEP_MS);
  return i < 0 ? 0 : i >= day.elevationDeg.length ? day.elevationDeg.length - 1 : i;
}

/** The sun's elevation at `ts` (nearest grid point, ≤ 2.5 min away: about 0.6° at most). */
export function elevationAt(day: SunDay, ts: number): number {
  return day.elevationDeg[sunIndex(day, ts)]!;
}
