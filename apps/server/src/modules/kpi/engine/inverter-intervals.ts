/**
 * What an inverter was doing in one interval (e.g. 5 min), the common ground of time-based availability
 * and the downtime loss, so the two always agree.
 */

/**
 * Irradiance above which an inverter is expected to produce: the daylight threshold, 50 W/m²
 * (the low-irradiance limit IEC 61724-1:2021 and IEC TS 63019 use for daylight availability).
 */
export const DAYLIGHT_THRESHOLD_WM2 = 50;

/** One inverter in one interval. */
export interface InverterIntervalData {
  /** AC energy in the interval (its counter delta); null when no data arrived (a communication gap). */
  energyKwh: number | null;
  /**
   * A grid outage or curtailment was signalled for the interval: the inverter was not expected to
   * produce freely. Leave unset when the plant has no such signals.
   */
  excused?: boolean;
}

/**
 * - `gap`: no data; neither available nor unavailable (never downtime).
 * - `dark`: irradiance at or below the daylight threshold, or unknown; no production expected.
 * - `excused`: grid outage or curtailment signalled.
 * - `producing`: daylight and energy > 0.
 * - `down`: daylight, data, no energy, no excuse: unavailable.
 */
export type InverterIntervalState = 'gap' | 'dark' | 'excused' | 'producing' | 'down';

/** Classifies one inverter-interval against the plant's POA irradiance of that interval. */
export function classifyInverterInterval(
  data: InverterIntervalData,
  poaWm2: number | null,
  daylightThresholdWm2 = DAYLIGHT_THRESHOLD_WM2,
): InverterIntervalState {
  if (data.energyKwh === null) return 'gap';
  if (poaWm2 === null || !(poaWm2 > daylightThresholdWm2)) return 'dark';
  if (data.excused) return 'excused';
  return data.energyKwh > 0 ? 'producing' : 'down';
}

/**
 * Each inverter's share of the plant, by rated AC power (how downtime is valued and availability
 * weighted); equal shares when no rating is known.
 */
export function ratingShares(ratedAcKw: readonly number[]): number[] {
  const valid = ratedAcKw.map((kw) => (kw > 0 ? kw : 0));
  const total = valid.reduce((a, b) => a + b, 0);
  if (total > 0) return valid.map((kw) => kw / total);
  return ratedAcKw.map(() => 1 / ratedAcKw.length);
}
