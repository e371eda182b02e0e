import { describe, expect, it } from 'vitest';
import { estimateModuleTemperatureC, expectedEnergyKwh, expectedPowerKw } from './expected-power';

const model = { capacityKwp: 100 };

describe('expected power (PVWatts with lumped system losses)', () => {
  it('follows P0 × G/1000 × (1 + γ (T − 25)) × (1 − 0.14)', () => {
    // 100 × 0.8 × (1 − 0.0037 × 20) × 0.86 = 80 × 0.926 × 0.86 = 63.7088 kW
    expect(expectedPowerKw(800, 45, model)).toBeCloseTo(63.7088, 10);
    // Plant parameters: γ = −0.004, losses 10 %: 100 × 0.8 × (1 − 0.004 × 20) × 0.9 = 80 × 0.92 × 0.9 = 66.24
    expect(
      expectedPowerKw(800, 45, { capacityKwp: 100, gammaPerK: -0.004, systemLossFraction: 0.1 }),
    ).toBeCloseTo(66.24, 10);
  });

  it('is not capped at the AC capacity', () => {
    // 1200 W/m² at 25 °C: 100 × 1.2 × 1 × 0.86 = 103.2 kW, above any 90 kW inverter rating.
    expect(expectedPowerKw(1200, 25, model)).toBeCloseTo(103.2, 10);
  });

  it('skips the temperature correction without a module temperature, and is 0 in the dark', () => {
    // 100 × 0.5 × 0.86 = 43 kW
    expect(expectedPowerKw(500, null, model)).toBeCloseTo(43, 10);
    expect(expectedPowerKw(0, 20, model)).toBe(0);
    expect(expectedPowerKw(-4, 20, model)).toBe(0);
  });

  it('integrates to energy over the intervals', () => {
    // Twelve 5-minute intervals at 63.7088 kW = 63.7088 kWh; plus one at 43 kW for 5 min = 3.5833 kWh.
    const hour = Array.from({ length: 12 }, () => ({
      poaWm2: 800,
      moduleTemperatureC: 45,
      durationMs: 300_000,
    }));
    expect(expectedEnergyKwh(hour, model)).toBeCloseTo(63.7088, 9);
    expect(
      expectedEnergyKwh([...hour, { poaWm2: 500, moduleTemperatureC: null, durationMs: 300_000 }], model),
    ).toBeCloseTo(63.7088 + 43 / 12, 9);
  });

  it('estimates a missing module temperature with the Faiman model', () => {
    // 25 °C + 800 / (25 + 6.84 × 1) = 25 + 25.1256 = 50.1256 °C
    expect(estimateModuleTemperatureC(800, 25, 1)).toBeCloseTo(25 + 800 / 31.84, 10);
  });
});
