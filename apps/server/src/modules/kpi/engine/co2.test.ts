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
    expect(emissionFactorFor('FR')).toMatchObject({
      country: 'DEFAULT',
      kgPerKwh: 0.481,
      origin: 'built_in',
    });
    expect(emissionFactorFor(null).country).toBe('DEFAULT');
    const custom = { kgPerKwh: 0.5, year: 2025, source: 'plant owner' };
    expect(emissionFactorFor('TR', { TR: custom })).toEqual({ country: 'TR', origin: 'override', ...custom });
    expect(emissionFactorFor('FR', { DEFAULT: custom })).toEqual({
      country: 'DEFAULT',
      origin: 'override',
      ...custom,
    });
    // A country added by the admin is found; zero is a factor, not a missing one.
    const zero = { kgPerKwh: 0, year: 2024, source: 'hydro' };
    expect(emissionFactorFor('NO', { NO: zero })).toEqual({ country: 'NO', origin: 'override', ...zero });
  });

  it('keeps the precedence: country override > built-in country > DEFAULT override > built-in DEFAULT', () => {
    const a = { kgPerKwh: 0.1, year: 2025, source: 'a' };
    const d = { kgPerKwh: 0.9, year: 2025, source: 'd' };
    expect(emissionFactorFor('TR', { TR: a, DEFAULT: d })).toMatchObject({ country: 'TR', kgPerKwh: 0.1 });
    expect(emissionFactorFor('TR', { DEFAULT: d })).toMatchObject({ country: 'TR', kgPerKwh: 0.44 });
    expect(emissionFactorFor('FR', { DEFAULT: d })).toMatchObject({ country: 'DEFAULT', kgPerKwh: 0.9 });
    expect(emissionFactorFor('FR', { TR: a })).toMatchObject({ country: 'DEFAULT', kgPerKwh: 0.481 });
  });

  it('finds the country from the plant time zone', () => {
    expect(countryOfTimeZone('Europe/Istanbul')).toBe('TR');
    expect(countryOfTimeZone('Europe/Skopje')).toBe('MK');
    expect(countryOfTimeZone('Europe/Berlin')).toBe('DE');
    expect(countryOfTimeZone('Asia/Istanbul')).toBe('TR');
    // Every country of the tz database, so that a factor the admin adds for one reaches its plants.
    expect(countryOfTimeZone('America/Chicago')).toBe('US');
    expect(countryOfTimeZone('Europe/Paris')).toBe('FR');
    expect(countryOfTimeZone('Atlantic/Jan_Mayen')).toBe('SJ');
    expect(countryOfTimeZone('Etc/UTC')).toBeNull();
    expect(countryOfTimeZone('Mars/Olympus')).toBeNull();
  });
});
