import { describe, expect, it } from 'vitest';
import { dayOfYear, extraterrestrialNormal, SOLAR_CONSTANT_WM2, sunPosition } from './sun-position';

describe('sunPosition', () => {
  it('matches the NREL SPA worked example to within the 0.01° of the low-accuracy Meeus algorithm it uses', () => {
    // Reda & Andreas 2004 (NREL/TP-560-34302), table A5.1: 2003-10-17 12:30:30 local time (UTC−7) at
    // 39.742476° N, 105.1786° W, 1830.14 m, 820 hPa, 11 °C → topocentric zenith 50.11162°, azimuth
    // 194.34024°. suncalc is geocentric and refracts for a standard atmosphere, and Meeus' ch. 25 series
    // is good to about 0.01°: that is the tolerance, not SPA's 0.0003°. Measured: −0.0041°, −0.0012°.
    const sun = sunPosition(Date.UTC(2003, 9, 17, 19, 30, 30), 39.742476, -105.1786);
    expect(Math.abs(sun.zenithDeg - 50.11162)).toBeLessThan(0.01);
    expect(Math.abs(sun.azimuthDeg - 194.34024)).toBeLessThan(0.01);
    expect(sun.elevationDeg).toBeCloseTo(90 - sun.zenithDeg, 12);
  });

  it('measures azimuth clockwise from north: east in the morning, west in the afternoon', () => {
    // Konya (37.9° N, 32.5° E), equinox: 06:00 UTC is mid-morning, 12:00 UTC mid-afternoon.
    const morning = sunPosition(Date.UTC(2025, 2, 20, 6, 0), 37.9, 32.5);
    const afternoon = sunPosition(Date.UTC(2025, 2, 20, 12, 0), 37.9, 32.5);
    expect(morning.azimuthDeg).toBeGreaterThan(90);
    expect(morning.azimuthDeg).toBeLessThan(180);
    expect(afternoon.azimuthDeg).toBeGreaterThan(180);
    expect(afternoon.azimuthDeg).toBeLessThan(270);
  });
});

describe('dayOfYear and extraterrestrialNormal', () => {
  it('counts days from 1 January (UTC), leap days included', () => {
    expect(dayOfYear(Date.UTC(2025, 0, 1, 0, 0))).toBe(1);
    expect(dayOfYear(Date.UTC(2025, 0, 1, 23, 59))).toBe(1);
    expect(dayOfYear(Date.UTC(2024, 11, 31, 12))).toBe(366);
    expect(dayOfYear(Date.UTC(2019, 5, 20))).toBe(171);
  });

  it('varies by ±3.3 % around the solar constant (Duffie & Beckman eq. 1.4.1a)', () => {
    expect(extraterrestrialNormal(365)).toBeCloseTo(SOLAR_CONSTANT_WM2 * 1.033, 9);
    expect(extraterrestrialNormal(182.5)).toBeCloseTo(SOLAR_CONSTANT_WM2 * 0.967, 9);
  });
});
