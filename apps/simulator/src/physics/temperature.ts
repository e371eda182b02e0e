/** Air and equipment temperatures (the modules' own is @solar/pv-model's Faiman model). Pure functions; °C, W/m², m/s. */

const DAY_MS = 86_400_000;

export interface Climate {
  /** Annual mean air temperature. */
  annualMeanC: number;
  /** Half the difference between the warmest and the coldest month. */
  seasonalAmplitudeK: number;
  /** Half the clear-day difference between afternoon maximum and night minimum. */
  diurnalAmplitudeK: number;
}

/** A rough climate from latitude alone (continental Mediterranean: Konya, Štip); plants may override it. */
export function climateForLatitude(latitude: number): Climate {
  return {
    annualMeanC: 27 - 0.35 * Math.abs(latitude),
    seasonalAmplitudeK: 11,
    diurnalAmplitudeK: 7,
  };
}

/** Local solar time in hours (0…24) at a longitude: UTC shifted by 4 minutes per degree. */
export function solarHour(tsMs: number, longitude: number): number {
  const h = (((tsMs % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000 + longitude / 15;
  return ((h % 24) + 24) % 24;
}

/**
 * Air temperature: a seasonal cosine peaking in late July (mid January south of the equator) plus a daily
 * cosine peaking at 15:00 solar time, its swing damped by clouds (an overcast day barely warms up).
 */
export function ambientTemperature(
  tsMs: number,
  doy: number,
  latitude: number,
  longitude: number,
  climate: Climate,
  cloudCover = 0,
): number {
  const warmest = latitude >= 0 ? 200 : 17;
  const seasonal =
    climate.annualMeanC + climate.seasonalAmplitudeK * Math.cos((2 * Math.PI * (doy - warmest)) / 365);
  const swing = climate.diurnalAmplitudeK * (1 - 0.6 * cloudCover);
  return seasonal + swing * Math.cos((2 * Math.PI * (solarHour(tsMs, longitude) - 15)) / 24);
}

/** One step of a first-order lag towards `target` with time constant `tauS` (thermal inertia). */
export function firstOrderLag(previous: number, target: number, dtS: number, tauS: number): number {
  if (dtS <= 0) return previous;
  return target + (previous - target) * Math.exp(-dtS / tauS);
}

/** Steady-state cabinet temperature of an inverter: ambient plus heat from its losses at `loadFraction`. */
export function inverterCabinetTemperature(ambientC: number, loadFraction: number): number {
  return ambientC + 4 + 22 * Math.min(Math.max(loadFraction, 0), 1.1);
}

/**
 * Steady-state winding temperature of a transformer: ambient plus the rated rise scaled by load^y with the
 * winding exponent y = 1.6 (IEC 60076-7, ONAN distribution transformers; 60 K rated rise).
 */
export function transformerWindingTemperature(
  ambientC: number,
  loadFraction: number,
  ratedRiseK = 60,
): number {
  return ambientC + ratedRiseK * Math.max(loadFraction, 0) ** 1.6;
}
