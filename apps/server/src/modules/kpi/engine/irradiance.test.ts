import { describe, expect, it } from 'vitest';
import { combinedIrradianceSource, resolvePoa, transposeGhiToPoaWm2 } from './irradiance';

// Skopje, around solar noon (longitude 21.43° E: 12:00 − 21.43 × 4 min ≈ 10:34 UTC, ± the equation of time).
const SKOPJE = { latitude: 41.99, longitude: 21.43 };
const JUNE_NOON = Date.parse('2026-06-21T10:35:00Z');
const DECEMBER_NOON = Date.parse('2026-12-21T10:35:00Z');

describe('POA from GHI', () => {
  it('gives GHI back on a horizontal plane', () => {
    // Tilt 0: beam · cos Z + diffuse · (1 + 1)/2 + ground · 0 = (GHI − DHI) + DHI = GHI, whatever the split.
    for (const ghi of [150, 450, 900])
      expect(transposeGhiToPoaWm2(ghi, JUNE_NOON, { ...SKOPJE, tiltDeg: 0, azimuthDeg: 180 })).toBeCloseTo(
        ghi,
        9,
      );
  });

  it('gains on a south-facing plane in winter and loses on a north-facing one', () => {
    // December noon: the sun stands 90 − 42 − 23.4 ≈ 24.6° high, so a 30° south plane faces it far better
    // than the ground does, and a 30° north plane sees almost only sky.
    const ghi = 350;
    const south = transposeGhiToPoaWm2(ghi, DECEMBER_NOON, { ...SKOPJE, tiltDeg: 30, azimuthDeg: 180 });
    const north = transposeGhiToPoaWm2(ghi, DECEMBER_NOON, { ...SKOPJE, tiltDeg: 30, azimuthDeg: 0 });
    expect(south).toBeGreaterThan(1.3 * ghi);
    expect(north).toBeLessThan(0.6 * ghi);
  });

  it('is 0 without light', () => {
    const geometry = { ...SKOPJE, tiltDeg: 25, azimuthDeg: 180 };
    expect(transposeGhiToPoaWm2(0, JUNE_NOON, geometry)).toBe(0);
    expect(transposeGhiToPoaWm2(50, Date.parse('2026-06-21T23:00:00Z'), geometry)).toBe(0);
  });

  it('uses the measured POA when there is one and flags a transposed value', () => {
    const geometry = { ...SKOPJE, tiltDeg: 0, azimuthDeg: 180 };
    expect(resolvePoa({ tsMs: JUNE_NOON, poaWm2: 910, ghiWm2: 850 }, geometry)).toEqual({
      poaWm2: 910,
      source: 'measured',
    });
    const transposed = resolvePoa({ tsMs: JUNE_NOON, poaWm2: null, ghiWm2: 850 }, geometry);
    expect(transposed.source).toBe('transposed');
    expect(transposed.poaWm2).toBeCloseTo(850, 9);
    expect(resolvePoa({ tsMs: JUNE_NOON, poaWm2: null, ghiWm2: 850 }, null)).toEqual({
      poaWm2: null,
      source: 'none',
    });
    expect(combinedIrradianceSource(['measured', 'transposed', 'measured'])).toBe('transposed');
    expect(combinedIrradianceSource(['measured', 'none'])).toBe('measured');
    expect(combinedIrradianceSource([])).toBe('none');
  });
});
