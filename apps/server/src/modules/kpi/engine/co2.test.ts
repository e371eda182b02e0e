import { describe, expect, it } from 'vitest';
import { co2AvoidedKg, countryOfTimeZone, emissionFactorFor, GRID_EMISSION_FACTORS } from './co2';

describe('CO₂ avoided', () => {
  it('multiplies energy by the country factor', () => {
    // 1000 kWh in Türkiye × 0.440 kg/kWh = 440 kg; in North Macedonia × 0.517 = 517 kg; Germany × 0.380 = 380.
    expect(co2AvoidedKg(1000, emissionFactorFor('TR').kgPerKwh)).toBeCloseTo(440, 9);
    expect(co2AvoidedKg(1000, emissionFactorFor('mk').kgPerKwh)).toBeCloseTo(517, 9);
    expect(co2AvoidedKg(1000, emissionFactorFor('DE').kgPerKwh)).toBeCloseTo(380, 9);
    expect(co2AvoidedKg(null, 0.44)).toBeNull();
  });

  it('records a source and year for every factor', () => {
    for (const [country, f] of Object.entries(GRID_EMISSION_FACTORS)) {
      expect(f.source.length, country).toBeGreaterThan(10);
      expect(f.year, country).toBeGreaterThanOrEqual(2020);
      expect(f.kgPerKwh, country).toBeGreaterThan(0);
      expect(f.kgPerKwh, country).toBeLessThan(1.2);
    }
  });

  it('falls back to the default and lets callers override', () => {
    expect(emissionFactorFor('FR')).toMatchObject({ country: 'DEFAULT', kgPerKwh: 0.481 });
    expect(emissionFactorFor(null).country).toBe('DEFAULT');
    const custom = { kgPerKwh: 0.5, year: 2025, source: 'plant owner' };
    expect(emissionFactorFor('TR', { TR: custom })).toEqual({ country: 'TR', ...custom });
    expect(emissionFactorFor('FR', { DEFAULT: custom })).toEqual({ country: 'DEFAULT', ...custom });
  });

  it('finds the country from the plant time zone', () => {
    expect(countryOfTimeZone('Europe/Istanbul')).toBe('TR');
    expect(countryOfTimeZone('Europe/Skopje')).toBe('MK');
    expect(countryOfTimeZone('Europe/Berlin')).toBe('DE');
    expect(countryOfTimeZone('America/Chicago')).toBeNull();
  });
});
