import { describe, expect, it } from 'vitest';
import { excludedEnergyParts, excludedIrradianceParts } from './excluded-energy';

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

  it('lists the hours of irradiance left out per reason, and nothing under one 5-minute interval', () => {
    const none = {
      stale: 0,
      spike: 0,
      out_of_range: 0,
      irradiance_above_clear_sky: 0,
      irradiance_night_offset: 0,
      irradiance_power_drift: 0,
      irradiance_neighbour_disagreement: 0,
      replayed_day: 0,
      total: 0,
    };
    expect(excludedIrradianceParts({ ...none, stale: 1.25, spike: 1 / 12, total: 1.25 })).toEqual([
      { reason: 'stale', hours: 1.25 },
      { reason: 'spike', hours: 1 / 12 },
    ]);
    expect(excludedIrradianceParts({ ...none, stale: 0.01, total: 0.01 })).toEqual([]);
    expect(excludedIrradianceParts(undefined)).toEqual([]);
  });
});
