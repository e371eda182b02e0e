/**
 * Plane-of-array irradiance for the KPIs: the station's POA sensor when it has one (IEC 61724-1:2021
 * requires in-plane irradiance for PR), else its GHI transposed to the plant's plane with @solar/pv-model
 * (docs/pv-model.md) — suncalc (Meeus) sun position, Erbs et al. (1982) diffuse fraction, Liu & Jordan (1963)
 * isotropic sky — and flagged as transposed so the answer can say so.
 */
import type { IrradianceSource } from '@solar/shared';
import { dayOfYear, decomposeGhi, planeOfArrayIsotropic, sunPosition } from '@solar/pv-model';

/** Where and how the plant's modules face. Azimuth clockwise from north (180 = south), as on the plant form. */
export interface PlantGeometry {
  latitude: number;
  longitude: number;
  tiltDeg: number;
  azimuthDeg: number;
  /** Ground reflectance; 0.2 (grass, soil) when not given. */
  albedo?: number;
}

/**
 * GHI → POA in W/m² at `tsMs`: Erbs decomposition into beam and diffuse, then the isotropic sky model
 * (Duffie & Beckman eq. 2.15.1). For an interval mean pass the interval's midpoint as `tsMs`.
 */
export function transposeGhiToPoaWm2(ghiWm2: number, tsMs: number, geometry: PlantGeometry): number {
  if (!(ghiWm2 > 0)) return 0;
  const sun = sunPosition(tsMs, geometry.latitude, geometry.longitude);
  const components = decomposeGhi(ghiWm2, sun.zenithDeg, dayOfYear(tsMs));
  return planeOfArrayIsotropic(
    components,
    sun,
    geometry.tiltDeg,
    geometry.azimuthDeg,
    geometry.albedo ?? 0.2,
  );
}

export interface IrradianceReading {
  tsMs: number;
  poaWm2: number | null;
  ghiWm2: number | null;
}

export interface ResolvedPoa {
  poaWm2: number | null;
  source: IrradianceSource;
}

/**
 * The POA of one reading: measured when the station gave it, else transposed from GHI when the plant's
 * geometry is known, else none.
 */
export function resolvePoa(reading: IrradianceReading, geometry: PlantGeometry | null): ResolvedPoa {
  if (reading.poaWm2 !== null) return { poaWm2: reading.poaWm2, source: 'measured' };
  if (reading.ghiWm2 !== null && geometry)
    return { poaWm2: transposeGhiToPoaWm2(reading.ghiWm2, reading.tsMs, geometry), source: 'transposed' };
  return { poaWm2: null, source: 'none' };
}

/**
 * The source to report for a set of readings: `transposed` as soon as any value was transposed (the
 * figure then rests on a model), `measured` when every value was measured, `none` when nothing was known.
 */
export function combinedIrradianceSource(sources: Iterable<IrradianceSource>): IrradianceSource {
  let measured = false;
  for (const s of sources) {
    if (s === 'transposed') return 'transposed';
    if (s === 'measured') measured = true;
  }
  return measured ? 'measured' : 'none';
}
