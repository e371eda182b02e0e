import { describe, expect, it } from 'vitest';
import {
  finalYieldKwhKwp,
  irradianceWeightedTemperatureC,
  irradiationKwhM2,
  performanceRatio,
  referenceYieldKwhKwp,
  temperatureCorrectedPr,
  type PrInterval,
} from './yields';

const HOUR = 3_600_000;

// A clear day on a 100 kWp plant, in five one-hour intervals (mean values of each hour).
const POA_WM2 = [200, 600, 1000, 600, 200];
const T_MOD_C = [20, 35, 55, 45, 25];
const ENERGY_KWH = [17, 50, 80, 50, 17];
const clearDay: PrInterval[] = POA_WM2.map((poaWm2, i) => ({
  poaWm2,
  moduleTemperatureC: T_MOD_C[i]!,
  energyKwh: ENERGY_KWH[i]!,
  durationMs: HOUR,
}));

describe('yields and PR (IEC 61724-1:2021)', () => {
  it('integrates irradiance samples over their intervals', () => {
    // 12 five-minute means of 500 W/m²: 500 W/m² × 1 h = 0.5 kWh/m². A −3 W/m² night offset counts as 0.
    const samples = Array.from({ length: 12 }, () => ({ irradianceWm2: 500, durationMs: 5 * 60_000 }));
    expect(irradiationKwhM2([...samples, { irradianceWm2: -3, durationMs: 10 * HOUR }])).toBeCloseTo(0.5, 12);
  });

  it('gives the clear day its PR', () => {
    // H = (200 + 600 + 1000 + 600 + 200) W/m² × 1 h = 2600 Wh/m² = 2.6 kWh/m²; Yr = 2.6 / 1 = 2.6 kWh/kWp.
    const h = irradiationKwhM2(
      clearDay.map((iv) => ({ irradianceWm2: iv.poaWm2, durationMs: iv.durationMs })),
    );
    expect(h).toBeCloseTo(2.6, 12);
    const yr = referenceYieldKwhKwp(h);
    // E = 17 + 50 + 80 + 50 + 17 = 214 kWh; Yf = 214 / 100 = 2.14 kWh/kWp.
    const yf = finalYieldKwhKwp(214, 100);
    expect(yf).toBeCloseTo(2.14, 12);
    // PR = 2.14 / 2.6 = 0.823077
    expect(performanceRatio(yf, yr)).toBeCloseTo(0.823077, 6);
  });

  it('gives the clear day its temperature-corrected PR', () => {
    // Σ P0 · G/1000 · (1 + γ (T − 25)) · 1 h with γ = −0.0037 /K:
    //   100 · 0.2 · (1 − 0.0037 · −5) = 20 · 1.0185 = 20.37
    //   100 · 0.6 · (1 − 0.0037 · 10) = 60 · 0.963  = 57.78
    //   100 · 1.0 · (1 − 0.0037 · 30) = 100 · 0.889 = 88.90
    //   100 · 0.6 · (1 − 0.0037 · 20) = 60 · 0.926  = 55.56
    //   100 · 0.2 · (1 − 0.0037 · 0)  = 20 · 1      = 20.00
    //   sum = 242.61 kWh; PR_corr = 214 / 242.61 = 0.882074
    const prCorr = temperatureCorrectedPr(clearDay, { capacityKwp: 100 });
    expect(prCorr).toBeCloseTo(214 / 242.61, 12);
    expect(prCorr).toBeCloseTo(0.882074, 6);
    // Hot modules make the plain PR (0.823) look worse than the plant is; the correction lifts it.
    expect(prCorr!).toBeGreaterThan(0.823077);
  });

  it("offers Dierauf's variant: correct to the irradiance-weighted mean temperature", () => {
    // Σ G·T / Σ G = (200·20 + 600·35 + 1000·55 + 600·45 + 200·25) / 2600 = 112000 / 2600 = 43.0769 °C
    const tAvg = irradianceWeightedTemperatureC(clearDay)!;
    expect(tAvg).toBeCloseTo(112_000 / 2600, 10);
    // Σ G (1 + γ (T − T_avg)) = Σ G + γ (Σ G·T − T_avg Σ G) = Σ G exactly: over the same data the
    // variant's PR_corr equals the plain PR (Dierauf's stated property), here 0.823077.
    expect(temperatureCorrectedPr(clearDay, { capacityKwp: 100, referenceTemperatureC: tAvg })).toBeCloseTo(
      214 / 260,
      12,
    );
  });

  it('leaves out intervals without energy or temperature, and answers null without sun or capacity', () => {
    // Dropping hour 3 (100 · 0.889 = 88.9 kWh reference, 80 kWh actual): (214 − 80) / (242.61 − 88.9).
    const gappy = clearDay.map((iv, i) => (i === 2 ? { ...iv, energyKwh: null } : iv));
    expect(temperatureCorrectedPr(gappy, { capacityKwp: 100 })).toBeCloseTo(134 / 153.71, 12);
    expect(temperatureCorrectedPr([], { capacityKwp: 100 })).toBeNull();
    expect(performanceRatio(1, 0)).toBeNull();
    expect(finalYieldKwhKwp(100, null)).toBeNull();
    expect(finalYieldKwhKwp(100, 0)).toBeNull();
  });
});
