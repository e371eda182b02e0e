/**
 * Soiling of a plant's modules: dust builds up at a constant rate per day (a linear loss of transmission)
 * and rain or a cleaning washes it off, the picture behind RdTools' stochastic rate-and-recovery method
 * (Deceglie, Micheli & Muller 2018, IEEE J. Photovolt. 8(2) 547, `rdtools.soiling.soiling_srr`). Here the
 * rate, the rains and the cleanings are known, so the soiling ratio of any day is ground truth that the
 * engine's estimate can be checked against. Days are solar days (./field-weather.ts solarDayIndex).
 */
import { hashString } from './random';
import { hashUniform } from './field-weather';

/** A heavily soiled array keeps at least this share (a crust does not block more in months of drought). */
export const SOILING_RATIO_FLOOR = 0.7;
/** Soiling rates drawn per plant: 0.1 to 0.3 %/day, the range RdTools' validation sites span. */
export const SOILING_RATE_RANGE_PER_DAY: readonly [number, number] = [0.001, 0.003];

export type SoilingResetKind = 'rain' | 'cleaning' | 'commissioning';

export interface SoilingOptions {
  /** Loss of transmission per dry day (0.002 = 0.2 %/day); default drawn per plant from the seed. */
  ratePerDay?: number;
  /** Cleaning every this many days, counted from the commissioning day; 0 or omitted: no schedule. */
  cleaningEveryDays?: number;
  /** Extra cleanings on these solar days (days since the epoch). */
  cleaningDays?: readonly number[];
}

/** The soiling rate a plant draws from its seed when none is given. */
export function soilingRateFromSeed(seed: number, plantKey: string): number {
  const [min, max] = SOILING_RATE_RANGE_PER_DAY;
  return min + (max - min) * hashUniform(hashString(`soiling:${seed}:${plantKey}`), 0);
}

/** Soiling of one plant: the reset days and the ratio of each day, cached day by day. */
export class SoilingModel {
  readonly ratePerDay: number;
  private readonly cleaningDays: Set<number>;
  private readonly lastResetCache = new Map<number, number>();

  constructor(
    /** Whether it rains on a solar day (the field's weather). */
    private readonly rainOn: (solarDay: number) => boolean,
    /** The commissioning solar day: the modules start clean. */
    readonly commissioningDay: number,
    ratePerDay: number,
    private readonly cleaningEveryDays = 0,
    cleaningDays: readonly number[] = [],
  ) {
    this.ratePerDay = ratePerDay;
    this.cleaningDays = new Set(cleaningDays);
  }

  /** What washes the modules on a solar day, if anything (a cleaning wins over rain on the same day). */
  resetOn(day: number): SoilingResetKind | undefined {
    if (day === this.commissioningDay) return 'commissioning';
    if (day < this.commissioningDay) return undefined;
    if (this.cleaningDays.has(day)) return 'cleaning';
    if (this.cleaningEveryDays > 0 && (day - this.commissioningDay) % this.cleaningEveryDays === 0) {
      return 'cleaning';
    }
    return this.rainOn(day) ? 'rain' : undefined;
  }

  /** The latest solar day at or before `day` when the modules were clean (never before commissioning). */
  lastResetDay(day: number): number {
    if (day <= this.commissioningDay) return day;
    const cached = this.lastResetCache.get(day);
    if (cached !== undefined) return cached;
    let d = day;
    // Walk back to a reset or to a day already known; a day known gives the answer for all after it.
    while (d > this.commissioningDay && this.resetOn(d) === undefined && !this.lastResetCache.has(d)) d--;
    const found = this.resetOn(d) !== undefined ? d : (this.lastResetCache.get(d) ?? d);
    for (let i = d; i <= day; i++) {
      if (this.resetOn(i) === undefined) this.lastResetCache.set(i, found);
      else this.lastResetCache.set(i, i);
    }
    return this.lastResetCache.get(day)!;
  }

  /**
   * The soiling ratio (energy with soiling / energy clean) of a solar day: 1 on a day of rain, cleaning or
   * commissioning, less `ratePerDay` for each dry day since, never below SOILING_RATIO_FLOOR.
   */
  ratio(day: number): number {
    const dry = day - this.lastResetDay(day);
    return Math.max(1 - this.ratePerDay * dry, SOILING_RATIO_FLOOR);
  }

  /** The days in [fromDay, toDay] that washed the modules, and how. */
  resets(fromDay: number, toDay: number): { day: number; kind: SoilingResetKind }[] {
    const out: { day: number; kind: SoilingResetKind }[] = [];
    for (let d = fromDay; d <= toDay; d++) {
      const kind = this.resetOn(d);
      if (kind) out.push({ day: d, kind });
    }
    return out;
  }
}
