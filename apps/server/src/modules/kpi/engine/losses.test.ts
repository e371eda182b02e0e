import { LOSS_KINDS } from '@solar/shared';
import { describe, expect, it } from 'vitest';
import {
  energyBasedAvailability,
  inverterTimeAvailability,
  plantTimeAvailability,
  ratedAvailability,
} from './availability';
import type { InverterIntervalData } from './inverter-intervals';
import { dayLosses, type LossInterval } from './losses';

const FIVE_MIN = 300_000;

/**
 * A short plant "day" of 5-minute intervals: one dark interval (POA 20 W/m², P_exp 2.4 kW → 0.2 kWh),
 * ten daylight intervals (POA 600 W/m², P_exp 72 kW → 72 / 12 = 6 kWh each), one dark interval again.
 * Inverters A (60 kW) and B (40 kW) share expected power 0.6 / 0.4: 3.6 and 2.4 kWh per daylight
 * interval, 0.12 and 0.08 kWh per dark one. AC capacity 100 kW: no clipping at 72 kW.
 */
const RATINGS_KW = [60, 40];
const POA = [20, ...Array<number>(10).fill(600), 20];
const P_EXP_KW = [2.4, ...Array<number>(10).fill(72), 2.4];
const A_KWH = [0.1, ...Array<number>(10).fill(3.3), 0.1];

function day(b: (number | null)[], extra: Partial<LossInterval>[] = []): LossInterval[] {
  return POA.map((poaWm2, i) => ({
    durationMs: FIVE_MIN,
    poaWm2,
    expectedPowerKw: P_EXP_KW[i]!,
    inverters: [{ energyKwh: A_KWH[i]! }, { energyKwh: b[i]! }],
    ...extra[i],
  }));
}

const sumOfParts = (byKind: Record<string, number>) => LOSS_KINDS.reduce((s, k) => s + byKind[k]!, 0);

function availabilityOf(intervals: LossInterval[], inverter: number) {
  return inverterTimeAvailability(
    intervals.map((iv) => ({ poaWm2: iv.poaWm2, data: iv.inverters[inverter]! })),
  );
}

describe('losses and availability, worked by hand', () => {
  it('an inverter outage: its availability and downtime loss', () => {
    // B produces 2.2 kWh in daylight intervals 1–6, nothing in 7–10 (tripped), 0.06 in the dark ones.
    const intervals = day([0.06, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 0, 0, 0, 0, 0.06]);
    const losses = dayLosses({ inverterRatedAcKw: RATINGS_KW, acCapacityKw: 100, intervals });
    // Expected: 10 × 6 + 2 × 0.2 = 60.4 kWh. Actual: A 10 × 3.3 + 2 × 0.1 = 33.2; B 6 × 2.2 + 2 × 0.06 = 13.32.
    expect(losses.expectedEnergyKwh).toBeCloseTo(60.4, 10);
    expect(losses.actualEnergyKwh).toBeCloseTo(46.52, 10);
    expect(losses.totalLossKwh).toBeCloseTo(13.88, 10);
    // Downtime: B's share 2.4 kWh in 4 daylight intervals = 9.6 kWh.
    expect(losses.byKindKwh.downtime).toBeCloseTo(9.6, 10);
    expect(losses.downtimeByInverterKwh[0]).toBe(0);
    expect(losses.downtimeByInverterKwh[1]).toBeCloseTo(9.6, 10);
    // Underperformance: A 10 × (3.6 − 3.3) + 2 × (0.12 − 0.1) = 3.04; B 6 × (2.4 − 2.2) + 2 × (0.08 − 0.06)
    // = 1.24; 3.04 + 1.24 = 4.28 = 13.88 − 9.6.
    expect(losses.byKindKwh.underperformance).toBeCloseTo(4.28, 10);
    expect(losses.byKindKwh.clipping).toBe(0);
    expect(losses.byKindKwh.communication_gap).toBe(0);
    expect(sumOfParts(losses.byKindKwh)).toBeCloseTo(losses.totalLossKwh, 10);

    // Time-based: A produced in 10 of 10 daylight intervals, B in 6 of 10.
    const a = availabilityOf(intervals, 0);
    const b = availabilityOf(intervals, 1);
    expect(a.availability).toBe(1);
    expect(b).toMatchObject({
      availability: 0.6,
      daylightIntervals: 10,
      availableIntervals: 6,
      gapIntervals: 0,
    });
    // Plant, weighted by rating: (60 × 10 + 40 × 6) / (60 × 10 + 40 × 10) = 840 / 1000 = 0.6 × 1 + 0.4 × 0.6 = 0.84.
    const plant = plantTimeAvailability([ratedAvailability(60, a), ratedAvailability(40, b)]);
    expect(plant).toBeCloseTo(0.84, 12);
    // Energy-based: 1 − 9.6 / (46.52 + 9.6) = 1 − 9.6 / 56.12 = 0.828938
    expect(energyBasedAvailability(losses.actualEnergyKwh, losses.byKindKwh.downtime)).toBeCloseTo(
      0.828938,
      6,
    );
  });

  it('a communication gap is not counted as downtime (the counter catches up)', () => {
    // B sends nothing in daylight intervals 3–6 and resumes in 7 with the catch-up: it had been producing,
    // 4 × 2.2 kWh in the gap + 2.2 kWh of its own = 11 kWh in interval 7.
    const intervals = day([0.06, 2.2, 2.2, null, null, null, null, 11, 2.2, 2.2, 2.2, 0.06]);
    const losses = dayLosses({ inverterRatedAcKw: RATINGS_KW, acCapacityKw: 100, intervals });
    expect(losses.byKindKwh.downtime).toBe(0);
    // Gap settled with the interval that ends it: 5 × 2.4 expected − 11 recovered = 1 kWh.
    expect(losses.byKindKwh.communication_gap).toBeCloseTo(1, 10);
    expect(sumOfParts(losses.byKindKwh)).toBeCloseTo(losses.totalLossKwh, 10);
    // The gap is out of B's denominator: 6 intervals with data (2 + 4), all producing → 1.
    expect(availabilityOf(intervals, 1)).toMatchObject({
      availability: 1,
      daylightIntervals: 10,
      gapIntervals: 4,
    });
  });

  it('a gap open at the end of the day counts its whole expected share, estimated', () => {
    // B silent from daylight interval 7 to the end: 4 × 2.4 + 0.08 = 9.68 kWh, never downtime.
    const intervals = day([0.06, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, null, null, null, null, null]);
    const losses = dayLosses({ inverterRatedAcKw: RATINGS_KW, acCapacityKw: 100, intervals });
    expect(losses.byKindKwh.downtime).toBe(0);
    expect(losses.byKindKwh.communication_gap).toBeCloseTo(9.68, 10);
    // Actual 33.2 + 0.06 + 6 × 2.2 = 46.46; total 60.4 − 46.46 = 13.94; underperformance 13.94 − 9.68 = 4.26.
    expect(losses.totalLossKwh).toBeCloseTo(13.94, 10);
    expect(losses.byKindKwh.underperformance).toBeCloseTo(4.26, 10);
  });

  it('clipping is expected power above the AC capacity, and downtime is valued below it', () => {
    // One interval at P_exp 120 kW on a 100 kW plant: 10 kWh expected, (120 − 100) / 12 = 1.6667 kWh clipped.
    // A produces at its limit (60 / 12 = 5 kWh); B is down and loses 0.4 × (100 / 12) = 3.3333 kWh.
    const losses = dayLosses({
      inverterRatedAcKw: RATINGS_KW,
      acCapacityKw: 100,
      intervals: [
        {
          durationMs: FIVE_MIN,
          poaWm2: 1100,
          expectedPowerKw: 120,
          inverters: [{ energyKwh: 5 }, { energyKwh: 0 }],
        },
      ],
    });
    expect(losses.byKindKwh.clipping).toBeCloseTo(20 / 12, 10);
    expect(losses.byKindKwh.downtime).toBeCloseTo(40 / 12, 10);
    // Total 10 − 5 = 5 = 1.6667 + 3.3333: nothing left for underperformance.
    expect(losses.byKindKwh.underperformance).toBeCloseTo(0, 10);
    // An unknown AC capacity (0) clips nothing.
    const unknownCapacity = dayLosses({
      inverterRatedAcKw: RATINGS_KW,
      acCapacityKw: 0,
      intervals: [
        {
          durationMs: FIVE_MIN,
          poaWm2: 500,
          expectedPowerKw: 60,
          inverters: [{ energyKwh: 3 }, { energyKwh: 2 }],
        },
      ],
    });
    expect(unknownCapacity.byKindKwh.clipping).toBe(0);
  });

  it('grid outage or curtailment is its own part and keeps availability', () => {
    // B stopped by a signalled grid outage in daylight intervals 9–10: 2 × 2.4 = 4.8 kWh, not downtime.
    const intervals = day(
      [0.06, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 0, 0, 0.06],
      Array.from({ length: 12 }, (_, i) =>
        i === 9 || i === 10
          ? { inverters: [{ energyKwh: 3.3 }, { energyKwh: 0, excused: true }] as InverterIntervalData[] }
          : {},
      ),
    );
    const losses = dayLosses({ inverterRatedAcKw: RATINGS_KW, acCapacityKw: 100, intervals });
    expect(losses.byKindKwh.grid_curtailment).toBeCloseTo(4.8, 10);
    expect(losses.byKindKwh.downtime).toBe(0);
    expect(availabilityOf(intervals, 1)).toMatchObject({ availability: 1, excusedIntervals: 2 });
  });

  it('takes the meter as actual when given, and a weather gap as met expectation', () => {
    const intervals = day([0.06, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 2.2, 0.06]);
    const inverterOnly = dayLosses({ inverterRatedAcKw: RATINGS_KW, acCapacityKw: 100, intervals });
    // Meter 47 kWh against 33.2 + 22.12 = 55.32 at the inverters: 8.32 kWh more underperformance.
    const metered = dayLosses({
      inverterRatedAcKw: RATINGS_KW,
      acCapacityKw: 100,
      intervals,
      meterEnergyKwh: 47,
    });
    expect(metered.actualEnergyKwh).toBe(47);
    expect(metered.byKindKwh.underperformance - inverterOnly.byKindKwh.underperformance).toBeCloseTo(
      8.32,
      10,
    );
    // No weather in interval 5: its expectation becomes what was produced (3.3 + 2.2), so 5.5 replaces 6.
    const gap = dayLosses({
      inverterRatedAcKw: RATINGS_KW,
      acCapacityKw: 100,
      intervals: intervals.map((iv, i) => (i === 5 ? { ...iv, poaWm2: null, expectedPowerKw: null } : iv)),
    });
    expect(gap.weatherGapIntervals).toBe(1);
    expect(inverterOnly.expectedEnergyKwh - gap.expectedEnergyKwh).toBeCloseTo(0.5, 10);
  });

  it('the parts always add up to the total (random days)', () => {
    // A small deterministic generator (mulberry32) so a failure can be replayed.
    let seed = 20260329;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    for (let run = 0; run < 50; run++) {
      const ratings = Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.round(random() * 100));
      const acCapacityKw = random() * 300;
      const intervals: LossInterval[] = Array.from({ length: 288 }, () => {
        const poaWm2 = random() < 0.05 ? null : random() * 1200;
        return {
          durationMs: FIVE_MIN,
          poaWm2,
          expectedPowerKw: poaWm2 === null ? null : random() * 350,
          inverters: ratings.map(() => ({
            energyKwh: random() < 0.1 ? null : random() < 0.2 ? 0 : random() * 10,
            excused: random() < 0.05,
          })),
        };
      });
      const meterEnergyKwh = random() < 0.3 ? random() * 2000 : null;
      const losses = dayLosses({ inverterRatedAcKw: ratings, acCapacityKw, intervals, meterEnergyKwh });
      expect(sumOfParts(losses.byKindKwh)).toBeCloseTo(losses.totalLossKwh, 6);
      expect(losses.totalLossKwh).toBeCloseTo(losses.expectedEnergyKwh - losses.actualEnergyKwh, 9);
      expect(losses.byKindKwh.downtime).toBeGreaterThanOrEqual(0);
      expect(losses.byKindKwh.clipping).toBeGreaterThanOrEqual(0);
    }
  });
});
