/**
 * Availability of inverters and plants: time-based per inverter, weighted by rated AC power for the
 * plant, and energy-based as IEC TS 63019:2019 ("Photovoltaic power systems — Information model for
 * availability") describes.
 */
import {
  classifyInverterInterval,
  DAYLIGHT_THRESHOLD_WM2,
  type InverterIntervalData,
} from './inverter-intervals';

/** One inverter in one interval, with the plant's POA irradiance of that interval. */
export interface AvailabilityInterval {
  poaWm2: number | null;
  data: InverterIntervalData;
}

export interface TimeAvailability {
  /** available / (daylight − gap); null when no daylight interval had data. */
  availability: number | null;
  /** Intervals with POA above the threshold. */
  daylightIntervals: number;
  /** Daylight intervals in which it produced, or was excused by a grid outage or curtailment. */
  availableIntervals: number;
  /** Daylight intervals without data: left out of the denominator. */
  gapIntervals: number;
  /** Of the available intervals, those excused by a grid signal. */
  excusedIntervals: number;
}

/**
 * Time-based availability of one inverter (IEC TS 63019 time-based availability, with the issue's
 * daylight rule): the share of daylight intervals (POA > 50 W/m²) in which it produced, or was not expected
 * to because a grid outage or curtailment was signalled. Intervals without data are left out of the
 * denominator, not counted as down: an unreachable logger says nothing about the inverter, and the missing
 * time is reported by data completeness and the communication-gap loss instead. An inverter that never
 * reports therefore has no availability (null), not 0.
 */
export function inverterTimeAvailability(
  intervals: Iterable<AvailabilityInterval>,
  daylightThresholdWm2 = DAYLIGHT_THRESHOLD_WM2,
): TimeAvailability {
  let daylight = 0;
  let available = 0;
  let gap = 0;
  let excused = 0;
  for (const iv of intervals) {
    if (iv.poaWm2 === null || !(iv.poaWm2 > daylightThresholdWm2)) continue;
    daylight++;
    const state = classifyInverterInterval(iv.data, iv.poaWm2, daylightThresholdWm2);
    if (state === 'gap') gap++;
    else if (state === 'producing') available++;
    else if (state === 'excused') {
      available++;
      excused++;
    }
  }
  const assessed = daylight - gap;
  return {
    availability: assessed > 0 ? available / assessed : null,
    daylightIntervals: daylight,
    availableIntervals: available,
    gapIntervals: gap,
    excusedIntervals: excused,
  };
}

/** An inverter's availability counts with its rating, as plantTimeAvailability weighs them. */
export interface RatedAvailability {
  ratedAcKw: number;
  availableIntervals: number;
  /** Daylight intervals with data: daylightIntervals − gapIntervals. */
  assessedIntervals: number;
}

/** The rating-weighted interval counts of one inverter, the additive form a daily KPI row stores. */
export function ratedAvailability(ratedAcKw: number, a: TimeAvailability): RatedAvailability {
  return {
    ratedAcKw,
    availableIntervals: a.availableIntervals,
    assessedIntervals: a.daylightIntervals - a.gapIntervals,
  };
}

/**
 * Plant availability weighted by rated AC power: Σ P_j · available_j / Σ P_j · assessed_j. When every
 * inverter was assessed over the same intervals this is exactly Σ P_j A_j / Σ P_j, the rating-weighted
 * mean of their availabilities; when gaps differ, an inverter weighs by the time it could be judged. In
 * this form days add up (sum the numerator and the denominator), so a month is not a mean of daily ratios.
 * Null when no inverter had an assessed daylight interval.
 */
export function plantTimeAvailability(inverters: readonly RatedAvailability[]): number | null {
  let availableKw = 0;
  let assessedKw = 0;
  for (const inv of inverters) {
    const kw = inv.ratedAcKw > 0 ? inv.ratedAcKw : 0;
    availableKw += kw * inv.availableIntervals;
    assessedKw += kw * inv.assessedIntervals;
  }
  return assessedKw > 0 ? availableKw / assessedKw : null;
}

/**
 * Energy-based availability (IEC TS 63019): 1 − E_lost / (E_actual + E_lost), with E_lost the energy lost
 * to unavailability — the downtime loss of losses.ts; communication gaps and grid curtailment are not the
 * plant's unavailability and stay out. Null when there was neither production nor loss.
 */
export function energyBasedAvailability(
  actualEnergyKwh: number,
  lostToUnavailabilityKwh: number,
): number | null {
  const potential = actualEnergyKwh + lostToUnavailabilityKwh;
  return potential > 0 ? 1 - lostToUnavailabilityKwh / potential : null;
}
