import { describe, expect, it } from 'vitest';
import { exampleTopology } from './example-topology';
import { FACTORY_TEST_ENERGY_KWH, lifetimeEnergyEstimateKwh } from './physics/energy';
import { createVirtualPlant, type VirtualPlantDefinition } from './plant';

const [karapinar] = exampleTopology() as [VirtualPlantDefinition];
const YEAR_MS = 365.25 * 86_400_000;
// 02:00 in Istanbul: a night sample, before the day adds anything.
const NIGHT = Date.UTC(2026, 10, 23, 23, 0);

const readingsAt = (definition: VirtualPlantDefinition, ts: number) =>
  createVirtualPlant(definition, { seed: 1, faults: false, clouds: false }).sample(ts);

describe('lifetime energy counters', () => {
  it('estimates a degraded typical yield per year since commissioning, worked by hand', () => {
    // 100 kWp at 37.7°: 2300 − 22 × 37.7 = 1470.6 kWh/kWp a year; 4 years less 0.5 %/year degradation
    // integrated: 4 − 0.005 × 16 / 2 = 3.96 degraded years → 100 × 1470.6 × 3.96 = 582,357.6 kWh.
    expect(lifetimeEnergyEstimateKwh(100, 37.7, 0, 4 * YEAR_MS)).toBeCloseTo(582_357.6, 1);
    // Not yet commissioned, or commissioned now: the factory-test energy, never 0.
    expect(lifetimeEnergyEstimateKwh(100, 37.7, 0, 0)).toBe(FACTORY_TEST_ENERGY_KWH);
    expect(lifetimeEnergyEstimateKwh(100, 37.7, YEAR_MS, 0)).toBe(FACTORY_TEST_ENERGY_KWH);
  });

  it('starts an inverter commissioned in 2021 at years of energy, not at one day', () => {
    const definition = { ...karapinar, commissioningDate: '2021-06-15' };
    const samples = readingsAt(definition, NIGHT);
    const inverters = samples.filter((s) => s.type === 'inverter');
    expect(inverters.length).toBeGreaterThan(1);
    const inverterDcKwp = definition.dcCapacityKwp / inverters.length;
    for (const inv of inverters) {
      const kwhPerKwp = inv.readings.total_energy! / inverterDcKwp;
      // About 5.4 years at roughly 1,470 kWh/kWp a year (inverters differ a little in their DC share).
      expect(kwhPerKwp).toBeGreaterThan(5 * 1300);
      expect(kwhPerKwp).toBeLessThan(5.5 * 1600);
      expect(inv.values.daily_energy).toBe(0);
    }
    const meter = samples.find((s) => s.type === 'meter')!;
    const produced = inverters.reduce((sum, s) => sum + s.readings.total_energy!, 0);
    // The meter's export counter holds what of it reached the grid.
    expect(meter.readings.export_energy).toBeLessThan(produced);
    expect(meter.readings.export_energy).toBeGreaterThan(produced * 0.97);
  });

  it('never starts a counter at 0, even without a commissioning date', () => {
    for (const inv of readingsAt({ ...karapinar, commissioningDate: null }, NIGHT).filter(
      (s) => s.type === 'inverter',
    )) {
      expect(inv.readings.total_energy).toBeGreaterThanOrEqual(FACTORY_TEST_ENERGY_KWH);
    }
  });

  it('keeps a stored counter (a restart) rather than the estimate', () => {
    const definition = {
      ...karapinar,
      commissioningDate: '2021-06-15',
      devices: karapinar.devices.map((d) =>
        d.type === 'inverter' ? { ...d, initialTotalEnergyKwh: 1234.5 } : d,
      ),
    };
    for (const inv of readingsAt(definition, NIGHT).filter((s) => s.type === 'inverter')) {
      expect(inv.readings.total_energy).toBeCloseTo(1234.5, 1);
    }
  });

  it("keeps the meter's stored counters at a restart rather than deriving them from the inverters'", () => {
    const definition = {
      ...karapinar,
      commissioningDate: '2021-06-15',
      devices: karapinar.devices.map((d) =>
        d.type === 'inverter'
          ? { ...d, initialTotalEnergyKwh: 1234.5 }
          : d.type === 'meter'
            ? { ...d, initialExportEnergyKwh: 4321.25, initialImportEnergyKwh: 12.5 }
            : d,
      ),
    };
    const meter = readingsAt(definition, NIGHT).find((s) => s.type === 'meter')!;
    expect(meter.readings.export_energy).toBeCloseTo(4321.25, 3);
    expect(meter.readings.import_energy).toBeCloseTo(12.5, 3);
  });
});
