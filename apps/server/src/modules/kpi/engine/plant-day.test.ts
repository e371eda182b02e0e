import { describe, expect, it } from 'vitest';
import {
  combineDailyKpiSums,
  kpisFromSums,
  plantDayKpis,
  type PlantDayInterval,
  type PlantKpiConfig,
} from './plant-day';

const FIVE_MIN = 300_000;
const T0 = Date.parse('2026-06-21T08:00:00Z');

// 100 kWp, two 50 kW inverters, AC capacity 100 kW, Konya, 30° south; TR factor 0.44 kg/kWh.
const config: PlantKpiConfig = {
  dcCapacityKwp: 100,
  acCapacityKw: 100,
  inverterRatedAcKw: [50, 50],
  geometry: { latitude: 37.87, longitude: 32.48, tiltDeg: 30, azimuthDeg: 180 },
  co2FactorKgPerKwh: 0.44,
};

/** One hour of twelve 5-minute intervals at POA 1000 W/m² with the given module temperature and B energy. */
function hour(moduleTemperatureC: number, bKwh: number): PlantDayInterval[] {
  return Array.from({ length: 12 }, (_, i) => ({
    startMs: T0 + i * FIVE_MIN,
    durationMs: FIVE_MIN,
    poaWm2: 1000,
    ghiWm2: null,
    moduleTemperatureC,
    ambientTemperatureC: null,
    windSpeedMs: null,
    inverters: [{ energyKwh: 3.5 }, { energyKwh: bKwh }],
  }));
}

describe('a plant-day composed from the formulas', () => {
  it('gives the day its KPIs', () => {
    const { kpis, series } = plantDayKpis({ config, intervals: hour(25, 3.5), meterExportKwh: null });
    // E = 12 × (3.5 + 3.5) = 84 kWh from the inverters; H = 1000 W/m² × 1 h = 1 kWh/m².
    expect(kpis.energyKwh).toBeCloseTo(84, 10);
    expect(kpis.energySource).toBe('inverters');
    expect(kpis.irradianceSource).toBe('measured');
    // Yf = 84 / 100 = 0.84; Yr = 1; PR = 0.84. At 25 °C PR_corr = 84 / (100 × 1 × 1 × 1 h) = 0.84 too.
    expect(kpis.specificYieldKwhKwp).toBeCloseTo(0.84, 10);
    expect(kpis.pr).toBeCloseTo(0.84, 10);
    expect(kpis.prTemperatureCorrected).toBeCloseTo(0.84, 10);
    // Expected: 100 × 1 × 1 × 0.86 = 86 kW for 1 h = 86 kWh; loss 2 kWh, all underperformance.
    expect(kpis.expectedEnergyKwh).toBeCloseTo(86, 10);
    expect(kpis.lossesKwh.underperformance).toBeCloseTo(2, 10);
    expect(kpis.availability).toBe(1);
    expect(kpis.energyAvailability).toBe(1);
    // CO₂: 84 × 0.44 = 36.96 kg.
    expect(kpis.co2AvoidedKg).toBeCloseTo(36.96, 10);
    // Power chart: 7 kWh per 5 min = 84 kW against 86 kW expected.
    expect(series[0]).toMatchObject({ startMs: T0, poaWm2: 1000 });
    expect(series[0]!.actualPowerKw).toBeCloseTo(84, 10);
    expect(series[0]!.expectedPowerKw).toBeCloseTo(86, 10);
  });

  it('corrects PR for hot modules and prefers the meter', () => {
    // 45 °C: reference 100 × (1 − 0.0037 × 20) = 92.6 kWh; the meter read 82 kWh (2 kWh lost after the
    // inverters): PR = 0.82; PR_corr = 82 / 92.6 = 0.885529.
    const { kpis } = plantDayKpis({ config, intervals: hour(45, 3.5), meterExportKwh: 82 });
    expect(kpis.energySource).toBe('meter');
    expect(kpis.pr).toBeCloseTo(0.82, 10);
    expect(kpis.prTemperatureCorrected).toBeCloseTo(82 / 92.6, 10);
  });

  it('says so when the POA was transposed from GHI', () => {
    const intervals = hour(25, 3.5).map((iv) => ({ ...iv, poaWm2: null, ghiWm2: 800 }));
    const { kpis } = plantDayKpis({ config, intervals, meterExportKwh: null });
    expect(kpis.irradianceSource).toBe('transposed');
    // Summer morning on a 30° south plane: POA stays the same order of magnitude as GHI.
    expect(kpis.irradiationKwhM2).toBeGreaterThan(0.5);
    expect(kpis.irradiationKwhM2).toBeLessThan(1.2);
  });

  it('sums days into a period and recomputes the ratios', () => {
    const good = plantDayKpis({ config, intervals: hour(25, 3.5), meterExportKwh: null }).sums;
    // Day 2: inverter B down all hour. E = 42 kWh; downtime 0.5 × 86 = 43 kWh; B available 0 of 12.
    const outage = plantDayKpis({ config, intervals: hour(25, 0), meterExportKwh: null }).sums;
    expect(outage.lossesKwh.downtime).toBeCloseTo(43, 10);
    const period = kpisFromSums(combineDailyKpiSums([good, outage]), config.dcCapacityKwp);
    // PR = (84 + 42) / 100 / (1 + 1) = 0.63, not a mean of daily PRs that happens to agree here.
    expect(period.energyKwh).toBeCloseTo(126, 10);
    expect(period.pr).toBeCloseTo(0.63, 10);
    // Availability (50·12 + 50·12 + 50·12 + 0) / (4 × 50·12) = 1800 / 2400 = 0.75.
    expect(period.availability).toBeCloseTo(0.75, 12);
    // Energy-based: 1 − 43 / (126 + 43) = 0.745562
    expect(period.energyAvailability).toBeCloseTo(1 - 43 / 169, 12);
    expect(period.lossesKwh.downtime).toBeCloseTo(43, 10);
    expect(period.co2AvoidedKg).toBeCloseTo(126 * 0.44, 10);
    expect(combineDailyKpiSums([]).energySource).toBe('none');
  });
});
