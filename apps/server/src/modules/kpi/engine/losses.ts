/**
 * A day's loss, expected − actual energy, split into the parts an operator can act on. The expectation is
 * expected-power.ts (uncapped PVWatts); the split follows the issue: downtime, communication gaps,
 * clipping, grid outage/curtailment and the remaining underperformance, with the parts adding up to the
 * total (underperformance is defined as the remainder). Losses are positive when energy was lost; a
 * negative part is energy above the model (e.g. a cold, bright day beating the 14 % system losses), so
 * when actual > expected the total and usually the underperformance are negative.
 */
import type { LossKind } from '@solar/shared';
import {
  classifyInverterInterval,
  DAYLIGHT_THRESHOLD_WM2,
  ratingShares,
  type InverterIntervalData,
} from './inverter-intervals';

const MS_PER_H = 3_600_000;

/** One interval (e.g. a 5-minute rollup bucket) of the plant's day. */
export interface LossInterval {
  durationMs: number;
  /** Mean POA irradiance; null when the weather station did not report. */
  poaWm2: number | null;
  /** The plant's expected power (expectedPowerKw, uncapped); null when it could not be computed. */
  expectedPowerKw: number | null;
  /** One entry per inverter, in the order of `inverterRatedAcKw`. */
  inverters: readonly InverterIntervalData[];
}

export interface DayLossInput {
  /** Rated AC power of each inverter: its share of expected power. */
  inverterRatedAcKw: readonly number[];
  /** The plant's AC capacity: expected power above it is clipping. */
  acCapacityKw: number;
  intervals: readonly LossInterval[];
  /**
   * The day's energy from the grid meter when that is the plant's energy source; the inverters' sum
   * otherwise. The difference (transformer, cables, own consumption) lands in underperformance.
   */
  meterEnergyKwh?: number | null;
  daylightThresholdWm2?: number;
}

export interface DayLosses {
  expectedEnergyKwh: number;
  actualEnergyKwh: number;
  /** expected − actual; equals the sum of `byKindKwh`. */
  totalLossKwh: number;
  byKindKwh: Record<LossKind, number>;
  /** Downtime loss per inverter (same order as the input): the lost energy of energy-based availability. */
  downtimeByInverterKwh: number[];
  /** Intervals without an expected power: their expectation is taken as what the inverters produced. */
  weatherGapIntervals: number;
}

/**
 * Splits a day's loss (IEC 61724-1:2021 yield losses, valued in kWh; availability losses after IEC TS
 * 63019). Per interval the plant's expected energy is cut at the AC capacity: the part above is clipping;
 * the part below is shared among the inverters by rated AC power, and each inverter's share is
 * - downtime when it had data, daylight (POA > 50 W/m²), no energy and no grid excuse;
 * - grid curtailment when a grid outage or curtailment was signalled;
 * - communication gap while it sent no data: the interval that ends the gap carries the counter's
 *   catch-up, so the gap and that interval are settled together (expected − energy recovered), and a gap
 *   still open at the end of the day counts its whole expected share — estimated, never downtime;
 * - otherwise compared with its energy, the difference falling into underperformance.
 * An interval without expected power (no weather data) is taken to have met expectation.
 */
export function dayLosses(input: DayLossInput): DayLosses {
  const threshold = input.daylightThresholdWm2 ?? DAYLIGHT_THRESHOLD_WM2;
  const shares = ratingShares(input.inverterRatedAcKw);
  const n = shares.length;
  // An unknown (0) AC capacity must not turn the whole expectation into clipping.
  const capacityKw = input.acCapacityKw > 0 ? input.acCapacityKw : Number.POSITIVE_INFINITY;
  const downtimeByInverterKwh = new Array<number>(n).fill(0);
  const openGapExpectedKwh = new Array<number | null>(n).fill(null);
  let expectedKwh = 0;
  let inverterActualKwh = 0;
  let clippingKwh = 0;
  let commGapKwh = 0;
  let gridKwh = 0;
  let weatherGapIntervals = 0;

  for (const iv of input.intervals) {
    const hours = iv.durationMs / MS_PER_H;
    let intervalExpectedKwh: number;
    let clipKwh = 0;
    if (iv.expectedPowerKw === null) {
      weatherGapIntervals++;
      intervalExpectedKwh = 0;
      for (const d of iv.inverters) intervalExpectedKwh += d.energyKwh ?? 0;
    } else {
      intervalExpectedKwh = Math.max(iv.expectedPowerKw, 0) * hours;
      clipKwh = Math.max(intervalExpectedKwh - capacityKw * hours, 0);
    }
    expectedKwh += intervalExpectedKwh;
    clippingKwh += clipKwh;
    const cappedKwh = intervalExpectedKwh - clipKwh;

    for (let j = 0; j < n; j++) {
      const data = iv.inverters[j] ?? { energyKwh: null };
      // Without a model the inverter's own energy is its expectation (nothing to blame).
      const shareKwh = iv.expectedPowerKw === null ? (data.energyKwh ?? 0) : shares[j]! * cappedKwh;
      if (data.energyKwh !== null) inverterActualKwh += data.energyKwh;
      const open = openGapExpectedKwh[j]!;
      if (data.energyKwh === null) {
        openGapExpectedKwh[j] = (open ?? 0) + shareKwh;
        continue;
      }
      if (open !== null) {
        commGapKwh += open + shareKwh - data.energyKwh;
        openGapExpectedKwh[j] = null;
        continue;
      }
      const state = classifyInverterInterval(data, iv.poaWm2, threshold);
      if (state === 'down') downtimeByInverterKwh[j]! += shareKwh - data.energyKwh;
      else if (state === 'excused') gridKwh += shareKwh - data.energyKwh;
    }
  }
  for (const open of openGapExpectedKwh) if (open !== null) commGapKwh += open;

  const downtimeKwh = downtimeByInverterKwh.reduce((a, b) => a + b, 0);
  const actualKwh =
    input.meterEnergyKwh !== null && input.meterEnergyKwh !== undefined
      ? input.meterEnergyKwh
      : inverterActualKwh;
  const totalLossKwh = expectedKwh - actualKwh;
  return {
    expectedEnergyKwh: expectedKwh,
    actualEnergyKwh: actualKwh,
    totalLossKwh,
    byKindKwh: {
      downtime: downtimeKwh,
      communication_gap: commGapKwh,
      clipping: clippingKwh,
      grid_curtailment: gridKwh,
      underperformance: totalLossKwh - downtimeKwh - commGapKwh - clippingKwh - gridKwh,
    },
    downtimeByInverterKwh,
    weatherGapIntervals,
  };
}
