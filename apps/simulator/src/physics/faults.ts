/**
 * Faults as a seeded random process: each kind starts as a Poisson event (probability 1 − e^(−λ·dt) in a
 * step of dt) and lasts a random time. Deterministic for a given seed and sampling.
 */
import { SUNSPEC_INVERTER_EVENT1_BITS } from '@solar/shared';
import { createRandom, hashString, uniform } from './random';
import type { Random } from './random';

const DAY_S = 86_400;

/** Rates are per device per day; durations and fractions are [min, max] ranges drawn uniformly. */
export interface FaultRates {
  /** Inverter trips (AC 0, status fault, an event bit); only while the inverter feeds in. */
  inverterTripsPerDay: number;
  tripDurationMinutes: [number, number];
  /** A string or fuse goes out: a fraction of the inverter's DC is lost until someone repairs it. */
  stringLossesPerDay: number;
  stringLossFraction: [number, number];
  stringLossDurationMinutes: [number, number];
  /** The device stops answering/publishing (any device type). */
  commLossesPerDay: number;
  commLossDurationMinutes: [number, number];
}

/** About one trip per inverter per 50 days, one string fault per 100, one comms dropout per 20. */
export const DEFAULT_FAULT_RATES: FaultRates = {
  inverterTripsPerDay: 0.02,
  tripDurationMinutes: [5, 45],
  stringLossesPerDay: 0.01,
  stringLossFraction: [0.05, 0.2],
  stringLossDurationMinutes: [120, 1440],
  commLossesPerDay: 0.05,
  commLossDurationMinutes: [2, 30],
};

export const NO_FAULTS: FaultRates = {
  ...DEFAULT_FAULT_RATES,
  inverterTripsPerDay: 0,
  stringLossesPerDay: 0,
  commLossesPerDay: 0,
};

/**
 * `grid_outage` (on a meter: the grid at the connection point is gone, every inverter disconnects) and
 * `curtailment` (on an inverter: the grid operator limits its active power, SunSpec model 123 WMaxLimPct)
 * are only ever forced, never drawn: they are the grid's events, not the plant's.
 */
export type FaultKind = 'trip' | 'string_loss' | 'comm_loss' | 'grid_outage' | 'curtailment';

/** The causes a trip reports in SunSpec model 103's Evt1. */
const TRIP_CAUSES = [
  SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT,
  SUNSPEC_INVERTER_EVENT1_BITS.AC_OVER_VOLT,
  SUNSPEC_INVERTER_EVENT1_BITS.OVER_FREQUENCY,
  SUNSPEC_INVERTER_EVENT1_BITS.GROUND_FAULT,
  SUNSPEC_INVERTER_EVENT1_BITS.OVER_TEMP,
] as const;

export interface FaultState {
  tripped: boolean;
  /** Fraction of DC strings out, 0…1. */
  lostStringFraction: number;
  commLost: boolean;
  /** SunSpec Evt1 bits of the active faults. */
  eventBits: number;
  /** A forced grid outage is on (meaningful on a meter). */
  gridDown: boolean;
  /** Active-power limit as a share of rated AC power, 1 when not curtailed (meaningful on an inverter). */
  powerLimitFraction: number;
}

/** The fault process of one device. */
export class FaultProcess {
  private readonly random: Random;
  private tripUntil = -Infinity;
  private tripBit = 0;
  private stringUntil = -Infinity;
  private stringFraction = 0;
  private commUntil = -Infinity;
  private gridUntil = -Infinity;
  private limitUntil = -Infinity;
  private limitFraction = 1;

  constructor(
    seed: number,
    deviceKey: string,
    private rates: FaultRates,
  ) {
    this.random = createRandom(hashString(`faults:${seed}:${deviceKey}`));
  }

  /** Changes the rates from now on (the demo's live phase is busier than its history). */
  setRates(rates: FaultRates): void {
    this.rates = rates;
  }

  private happens(perDay: number, dtS: number): boolean {
    return perDay > 0 && dtS > 0 && this.random() < 1 - Math.exp((-perDay * dtS) / DAY_S);
  }

  private durationMs([min, max]: [number, number]): number {
    return uniform(this.random, min, max) * 60_000;
  }

  /**
   * Starts a fault now, whatever the rates (demos, tests). `fraction`: the share of DC a string loss
   * takes (default 0.25), or the active-power limit of a curtailment as a share of rated power (default 0.5).
   */
  force(kind: FaultKind, tsMs: number, durationMs: number, fraction?: number): void {
    if (kind === 'grid_outage') {
      this.gridUntil = tsMs + durationMs;
    } else if (kind === 'curtailment') {
      this.limitUntil = tsMs + durationMs;
      this.limitFraction = Math.min(Math.max(fraction ?? 0.5, 0), 1);
    } else if (kind === 'trip') {
      this.tripUntil = tsMs + durationMs;
      this.tripBit = SUNSPEC_INVERTER_EVENT1_BITS.GRID_DISCONNECT;
    } else if (kind === 'string_loss') {
      this.stringUntil = tsMs + durationMs;
      this.stringFraction = fraction ?? 0.25;
    } else {
      this.commUntil = tsMs + durationMs;
    }
  }

  /** Advances `dtS` seconds to `tsMs`; `operating` says whether an inverter feeds in (trips need load). */
  step(
    tsMs: number,
    dtS: number,
    { inverter, operating }: { inverter: boolean; operating: boolean },
  ): FaultState {
    // Draw the same number of randoms every step, so one kind's events do not shift another's.
    const trip = this.happens(this.rates.inverterTripsPerDay, dtS);
    const string = this.happens(this.rates.stringLossesPerDay, dtS);
    const comm = this.happens(this.rates.commLossesPerDay, dtS);
    if (inverter && operating && trip && tsMs >= this.tripUntil) {
      this.tripUntil = tsMs + this.durationMs(this.rates.tripDurationMinutes);
      this.tripBit = TRIP_CAUSES[Math.floor(this.random() * TRIP_CAUSES.length)] ?? 0;
    }
    if (inverter && string && tsMs >= this.stringUntil) {
      this.stringUntil = tsMs + this.durationMs(this.rates.stringLossDurationMinutes);
      this.stringFraction = uniform(this.random, ...this.rates.stringLossFraction);
    }
    if (comm && tsMs >= this.commUntil) {
      this.commUntil = tsMs + this.durationMs(this.rates.commLossDurationMinutes);
    }
    const tripped = tsMs < this.tripUntil;
    return {
      tripped,
      lostStringFraction: tsMs < this.stringUntil ? this.stringFraction : 0,
      commLost: tsMs < this.commUntil,
      eventBits: tripped ? 2 ** this.tripBit : 0,
      gridDown: tsMs < this.gridUntil,
      powerLimitFraction: tsMs < this.limitUntil ? this.limitFraction : 1,
    };
  }
}
