import { describe, expect, it } from 'vitest';
import {
  addExcludedEnergy,
  DAY_ENERGY_MARGIN,
  dayEnergyLimitKwh,
  daylightHours,
  isDayEnergyImpossible,
} from './excluded-energy';

const FIVE_MIN = 300_000;
/** The 288 five-minute intervals of a UTC+3 local day (Istanbul, Konya). */
const dayOf = (date: string) => {
  const start = Date.parse(`${date}T00:00:00Z`) - 3 * 3_600_000;
  return Array.from({ length: 288 }, (_, i) => ({ startMs: start + i * FIVE_MIN, durationMs: FIVE_MIN }));
};
const konya = { latitude: 37.87, longitude: 32.49 };

describe('excluded energy', () => {
  it('counts the hours of daylight of a day from the sun position', () => {
    // Konya's day is 14 h 41 min at the June solstice and 9 h 38 min at the December one (sunrise to sunset);
    // the −1° threshold and whole 5-minute intervals add up to about 20 minutes.
    expect(daylightHours(dayOf('2026-06-21'), konya)).toBeGreaterThan(14.6);
    expect(daylightHours(dayOf('2026-06-21'), konya)).toBeLessThan(15.2);
    expect(daylightHours(dayOf('2026-12-21'), konya)).toBeGreaterThan(9.6);
    expect(daylightHours(dayOf('2026-12-21'), konya)).toBeLessThan(10.2);
    // Svalbard: midnight sun, polar night.
    const svalbard = { latitude: 78.2, longitude: 15.6 };
    expect(daylightHours(dayOf('2026-06-21'), svalbard)).toBe(24);
    expect(daylightHours(dayOf('2026-12-21'), svalbard)).toBe(0);
    // Without a location every interval counts: today's elapsed part, or the whole day.
    expect(daylightHours(dayOf('2026-06-21').slice(0, 30), null)).toBe(2.5);
  });

  it('calls a day impossible above AC capacity × daylight hours × the margin', () => {
    expect(DAY_ENERGY_MARGIN).toBe(1.2);
    expect(dayEnergyLimitKwh(100, 10)).toBe(1200);
    expect(dayEnergyLimitKwh(null, 10)).toBeNull();
    expect(dayEnergyLimitKwh(0, 10)).toBeNull();
    expect(isDayEnergyImpossible(1200, 1200)).toBe(false);
    expect(isDayEnergyImpossible(3024, 1200)).toBe(true);
    expect(isDayEnergyImpossible(null, 1200)).toBe(false);
    expect(isDayEnergyImpossible(5000, null)).toBe(false);
  });

  it('sums excluded energy per reason', () => {
    expect(
      addExcludedEnergy(
        { counter_jump: 80, day_energy_impossible: 0, replayed_day: 84 },
        { counter_jump: 2, day_energy_impossible: 3024, replayed_day: 0 },
      ),
    ).toEqual({ counter_jump: 82, day_energy_impossible: 3024, replayed_day: 84 });
  });
});
