import { describe, expect, it } from 'vitest';
import {
  counterEnergyKwh,
  intervalEnergiesKwh,
  lifetimeEnergyKwh,
  plantEnergy,
  sumDeltasKwh,
} from './energy';

const T0 = Date.parse('2026-06-21T08:00:00Z');
const MIN = 60_000;

describe('energy from counters', () => {
  it('sums counter steps and reads a drop as a reset', () => {
    // 1000 → 1010 (+10) → 1025 (+15) → reset, reads 4 (+4: energy since the reset) → 9 (+5) = 34 kWh.
    const readings = [1000, 1010, 1025, 4, 9].map((counterKwh, i) => ({
      tsMs: T0 + i * 5 * MIN,
      counterKwh,
    }));
    expect(counterEnergyKwh(readings)).toBe(10 + 15 + 4 + 5);
    // With the reading before the period (990) the step into it counts too: +10.
    expect(counterEnergyKwh(readings, 990)).toBe(44);
    // Order of the input does not matter.
    expect(counterEnergyKwh([...readings].reverse(), 990)).toBe(44);
    expect(counterEnergyKwh([])).toBe(0);
  });

  it('credits each step to the interval of the reading that closes it', () => {
    // Readings at 08:00, 08:02, 08:05 and — after a gap — 08:20: the 08:20 step (+30) is the catch-up.
    const readings = [
      { tsMs: T0, counterKwh: 100 },
      { tsMs: T0 + 2 * MIN, counterKwh: 102 },
      { tsMs: T0 + 5 * MIN, counterKwh: 105 },
      { tsMs: T0 + 20 * MIN, counterKwh: 135 },
    ];
    const byInterval = intervalEnergiesKwh(readings, 5 * MIN, 99);
    expect([...byInterval]).toEqual([
      [T0, 1 + 2], // 99 → 100 → 102
      [T0 + 5 * MIN, 3],
      [T0 + 20 * MIN, 30],
    ]);
  });

  it('keeps "no data" apart from zero', () => {
    expect(sumDeltasKwh([null, undefined])).toBeNull();
    expect(sumDeltasKwh([null, 0])).toBe(0);
    expect(sumDeltasKwh([1.5, null, 2.5])).toBe(4);
  });

  it('takes the lifetime from the newest reading; 0 is SunSpec for "not implemented"', () => {
    expect(lifetimeEnergyKwh(1_234_567.8)).toBe(1_234_567.8);
    expect(lifetimeEnergyKwh(0)).toBeNull();
    expect(lifetimeEnergyKwh(null)).toBeNull();
  });

  it('prefers the meter and says which source it used', () => {
    expect(plantEnergy({ meterExportKwh: 980, inverterEnergiesKwh: [500, 500] })).toEqual({
      energyKwh: 980,
      source: 'meter',
    });
    // No meter: the inverters that reported (500 + 480; one silent).
    expect(plantEnergy({ meterExportKwh: null, inverterEnergiesKwh: [500, null, 480] })).toEqual({
      energyKwh: 980,
      source: 'inverters',
    });
    expect(plantEnergy({ meterExportKwh: null, inverterEnergiesKwh: [null] })).toEqual({
      energyKwh: null,
      source: 'none',
    });
  });
});
