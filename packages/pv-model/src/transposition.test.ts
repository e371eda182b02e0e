import { describe, expect, it } from 'vitest';
import type { SunPosition } from './sun-position';
import { cosAngleOfIncidence, planeOfArrayIsotropic } from './transposition';

const sunAt = (zenithDeg: number, azimuthDeg: number): SunPosition => ({
  zenithDeg,
  azimuthDeg,
  elevationDeg: 90 - zenithDeg,
});

describe('cosAngleOfIncidence', () => {
  it("gives pvlib's aoi_projection (test_aoi_and_aoi_projection)", () => {
    // [tilt, surface azimuth, solar zenith, solar azimuth, cos θ]
    const cases: [number, number, number, number, number][] = [
      [0, 0, 0, 0, 1],
      [30, 180, 30, 180, 1],
      [30, 180, 150, 0, -1],
      [90, 0, 30, 60, 0.25],
      [90, 0, 30, 170, -0.4924038],
    ];
    for (const [tilt, surfaceAzimuth, zenith, azimuth, expected] of cases)
      expect(cosAngleOfIncidence(sunAt(zenith, azimuth), tilt, surfaceAzimuth)).toBeCloseTo(expected, 6);
  });
});

describe('planeOfArrayIsotropic', () => {
  it("gives pvlib's isotropic sky diffuse: 100 W/m² DHI on a 40° tilt is 88.3022 W/m²", () => {
    // pvlib test_isotropic_float; no beam, no ground (albedo 0).
    const poa = planeOfArrayIsotropic({ ghi: 1000, dni: 0, dhi: 100 }, sunAt(10, 180), 40, 180, 0);
    expect(poa).toBeCloseTo(88.30222215594891, 9);
  });

  it("adds pvlib's ground-reflected term: sky 104.601328 + ground 48.778813 on a 40° tilt over sand", () => {
    // pvlib test_isotropic_series and test_get_ground_diffuse_albedo_surface (sand: albedo 0.4) for the
    // noon row of its Tucson fixture: GHI 1042.48031487, DHI 118.45831879 W/m².
    const components = { ghi: 1042.48031487, dni: 0, dhi: 118.45831879 };
    const poa = planeOfArrayIsotropic(components, sunAt(10.56725766, 144.76567754), 40, 180, 0.4);
    expect(poa).toBeCloseTo(104.601328 + 48.778813, 4);
  });

  it('adds the beam as DNI · cos θ, never negative from behind the plane', () => {
    // A vertical north-facing plane with the sun in the south: beam behind the plane counts as 0.
    const behind = planeOfArrayIsotropic({ ghi: 500, dni: 600, dhi: 100 }, sunAt(30, 170), 90, 0, 0);
    expect(behind).toBeCloseTo(100 / 2, 9);
    // Sun normal to the plane: the whole DNI.
    const normal = planeOfArrayIsotropic({ ghi: 500, dni: 600, dhi: 100 }, sunAt(30, 180), 30, 180, 0);
    expect(normal).toBeCloseTo(600 + (100 * (1 + Math.cos(Math.PI / 6))) / 2, 9);
    // A horizontal plane receives GHI again when GHI = DHI + DNI cos Z.
    const cosZ = Math.cos(Math.PI / 6);
    const horizontal = planeOfArrayIsotropic(
      { ghi: 100 + 600 * cosZ, dni: 600, dhi: 100 },
      sunAt(30, 180),
      0,
      180,
    );
    expect(horizontal).toBeCloseTo(100 + 600 * cosZ, 9);
  });

  it('is 0 without light', () => {
    expect(planeOfArrayIsotropic({ ghi: 0, dni: 0, dhi: 0 }, sunAt(100, 0), 30, 180)).toBe(0);
  });
});
