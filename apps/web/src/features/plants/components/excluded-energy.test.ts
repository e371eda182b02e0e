import { describe, expect, it } from 'vitest';
import { excludedEnergyParts } from './excluded-energy';

describe('excluded energy note', () => {
  it('lists each reason with energy, in the contract order, and nothing when none was excluded', () => {
    expect(
      excludedEnergyParts({ counter_jump: 80, day_energy_impossible: 0, replayed_day: 0, total: 80 }),
    ).toEqual([{ reason: 'counter_jump', energyKwh: 80 }]);
    expect(
      excludedEnergyParts({
        counter_jump: 80,
        day_energy_impossible: 3024,
        replayed_day: 84,
        total: 3188,
      }).map((p) => p.reason),
    ).toEqual(['counter_jump', 'day_energy_impossible', 'replayed_day']);
    expect(
      excludedEnergyParts({ counter_jump: 0, day_energy_impossible: 0, replayed_day: 0, total: 0 }),
    ).toEqual([]);
    expect(
      excludedEnergyParts({ counter_jump: 1e-9, day_energy_impossible: 0, replayed_day: 0, total: 1e-9 }),
    ).toEqual([]);
    expect(excludedEnergyParts(undefined)).toEqual([]);
  });
});
