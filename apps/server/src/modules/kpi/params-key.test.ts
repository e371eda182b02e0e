import { describe, expect, it } from 'vitest';
import type { KpiPlant, PlantSignals } from './kpi.repository';
import type { PlantKpiConfig } from './engine/plant-day';
import { paramsKeyOf, PARAMS_KEY_LENGTH } from './plant-day.service';

describe('the key a stored KPI day was computed with', () => {
  const plant = {
    dcCapacityKwp: 6000,
    acCapacityKw: 5000,
    gammaPerK: -0.004,
    systemLossFraction: 0.14,
    latitude: 36.9,
    longitude: 30.7,
    tiltDeg: 25,
    azimuthDeg: 180,
  } as KpiPlant;
  const signals: PlantSignals = { weather: {}, inverters: [] };
  const keyOf = (inverterRatedAcKw: number[]) =>
    paramsKeyOf(plant, { co2FactorKgPerKwh: 0.44, inverterRatedAcKw } as unknown as PlantKpiConfig, signals);
  // A plant of 60 inverters at 100 kW: its ratings alone write 240 characters.
  const ratings = Array.from({ length: 60 }, () => 100);

  it('changes when the last of many inverters is rerated, and fits the column', () => {
    const before = keyOf(ratings);
    const after = keyOf([...ratings.slice(0, -1), 110]);
    expect(before).not.toBe(after);
    expect(before.length).toBeLessThanOrEqual(PARAMS_KEY_LENGTH);
    expect(after.length).toBeLessThanOrEqual(PARAMS_KEY_LENGTH);
  });

  it('keeps a short key as it was, so days stored under it are not recomputed', () => {
    expect(keyOf([100, 100])).toMatch(/\|100,100$/);
  });
});
