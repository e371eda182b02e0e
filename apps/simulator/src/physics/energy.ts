/** Energy counters: integrate power over time, and a daily counter that restarts at local midnight. */
import { localDateParts } from '@solar/shared';

/** The local calendar date (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDate(tsMs: number, timeZone: string): string {
  const { year, month, day } = localDateParts(tsMs, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The first local midnight strictly after `tsMs` in an IANA time zone (DST-aware). */
export function nextLocalMidnight(tsMs: number, timeZone: string): number {
  const { year, month, day, offsetMs } = localDateParts(tsMs, timeZone);
  const midnightAsUtc = Date.UTC(year, month - 1, day + 1);
  // The offset may change between now and midnight; correct once with the offset in force there.
  const guess = midnightAsUtc - offsetMs;
  return midnightAsUtc - localDateParts(guess, timeZone).offsetMs;
}

/** Energy in kWh of a power ramp from `fromKw` to `toKw` over `dtMs` (trapezoidal rule). */
export function trapezoidKwh(fromKw: number, toKw: number, dtMs: number): number {
  return dtMs > 0 ? ((fromKw + toKw) / 2) * (dtMs / 3_600_000) : 0;
}

/**
 * A total energy counter (never decreases) with a daily counter that restarts at local midnight in the
 * plant's time zone. Energy of an interval that spans midnight is shared in proportion to time.
 */
export class EnergyCounter {
  totalKwh: number;
  dailyKwh = 0;
  private dayEndMs: number | undefined;

  constructor(
    private readonly timeZone: string,
    initialTotalKwh = 0,
  ) {
    this.totalKwh = initialTotalKwh;
  }

  /** Adds `kwh` (negative amounts are ignored) produced between `fromMs` and `toMs`. */
  add(kwh: number, fromMs: number, toMs: number): void {
    const energy = Math.max(kwh, 0);
    this.totalKwh += energy;
    if (this.dayEndMs === undefined) this.dayEndMs = nextLocalMidnight(fromMs, this.timeZone);
    if (toMs >= this.dayEndMs) {
      const midnight = this.lastMidnightBefore(toMs);
      const share = toMs > fromMs ? (toMs - Math.max(midnight, fromMs)) / (toMs - fromMs) : 0;
      this.dailyKwh = energy * share;
      this.dayEndMs = nextLocalMidnight(toMs, this.timeZone);
    } else {
      this.dailyKwh += energy;
    }
  }

  private lastMidnightBefore(toMs: number): number {
    let midnight = this.dayEndMs ?? toMs;
    for (;;) {
      const next = nextLocalMidnight(midnight, this.timeZone);
      if (next > toMs) return midnight;
      midnight = next;
    }
  }
}

const YEAR_MS = 365.25 * 86_400_000;
/** Yearly loss of module output; 0.5 %/year is the common linear warranty figure for crystalline modules. */
export const MODULE_DEGRADATION_PER_YEAR = 0.005;
/**
 * What a factory acceptance test leaves on a new inverter's counter. SunSpec reads an acc32 of 0 as "not
 * implemented", so a real lifetime counter is never 0.
 */
export const FACTORY_TEST_ENERGY_KWH = 1;

/**
 * A rough yearly specific yield for a fixed, well-oriented array by latitude: about 1,470 kWh/kWp at 37.7°
 * (Konya) and 1,380 kWh/kWp at 41.9° (Skopje). A rule of thumb for seeding a plausible counter, not a
 * yield model.
 */
export function typicalSpecificYieldKwhPerKwp(latitude: number): number {
  return Math.max(2300 - 22 * Math.abs(latitude), 600);
}

/**
 * Where an inverter's lifetime counter stands at `atMs` for an array of `dcKwp` commissioned at
 * `commissionedMs`: the typical yield for each year since (capacity × specific yield × years), less the
 * modules' degradation (`degradationLossPerYear`, positive: 0.005 = 0.5 %/yr lost), and never less than
 * FACTORY_TEST_ENERGY_KWH.
 */
export function lifetimeEnergyEstimateKwh(
  dcKwp: number,
  latitude: number,
  commissionedMs: number,
  atMs: number,
  degradationLossPerYear = MODULE_DEGRADATION_PER_YEAR,
): number {
  const years = Math.max((atMs - commissionedMs) / YEAR_MS, 0);
  // The integral of a linearly degrading output over `years`.
  const degradedYears = years - (degradationLossPerYear * years * years) / 2;
  return Math.max(dcKwp * typicalSpecificYieldKwhPerKwp(latitude) * degradedYears, FACTORY_TEST_ENERGY_KWH);
}
