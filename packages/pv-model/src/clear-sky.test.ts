import { describe, expect, it } from 'vitest';
import { clearSkyGhiHaurwitz } from './clear-sky';

/** pvlib's test_haurwitz (pvlib/tests/test_clearsky.py): apparent elevation → GHI in W/m². */
const PVLIB_HAURWITZ: [elevationDeg: number, ghiWm2: number][] = [
  [5, 48.6298687941956],
  [10, 135.741748091813],
  [30, 487.894132885425],
  [50, 778.766689344363],
];

describe('clearSkyGhiHaurwitz', () => {
  it('is pvlib clearsky.haurwitz but for the exponent: 0.057 (Haurwitz 1945) where pvlib uses 0.059', () => {
    // GHI = 1098 cos Z exp(−c / cos Z): ours / pvlib's = exp(0.002 / cos Z) exactly when all else agrees.
    for (const [elevationDeg, pvlibGhi] of PVLIB_HAURWITZ) {
      const cosZ = Math.sin((elevationDeg * Math.PI) / 180);
      expect(clearSkyGhiHaurwitz(90 - elevationDeg) / pvlibGhi).toBeCloseTo(Math.exp(0.002 / cosZ), 9);
    }
  });

  it('is 1098 · e^−0.057 with the sun overhead and 0 with the sun down', () => {
    expect(clearSkyGhiHaurwitz(0)).toBeCloseTo(1098 * Math.exp(-0.057), 9);
    expect(clearSkyGhiHaurwitz(90)).toBe(0);
    expect(clearSkyGhiHaurwitz(110)).toBe(0);
  });
});
