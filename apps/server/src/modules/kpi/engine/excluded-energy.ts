/**
 * Energy the KPIs refuse to count, and why (docs/kpi.md, "Excluded energy"). The reasons are the data-quality
 * reasons of packages/shared/src/data-quality.ts, so a KPI answer and a data-quality flag name a fault alike:
 * - counter_jump: counter steps larger than the device could produce in the elapsed time (the telemetry
 *   store keeps them out of the energy delta, as `rejected_delta`: telemetry-store/aggregate.ts);
 * - day_energy_impossible: a day's energy above what the plant's AC capacity can deliver in that day's
 *   daylight, whatever its source;
 * - replayed_day: the energy of a device whose signals a logger replayed from an earlier day (an open
 *   data-quality flag): a replayed counter steps back and climbs the old day's steps again, each of them
 *   plausible, so the telemetry store counts them (docs/kpi.md, "replayed_day").
 */
import type { ExcludedEnergyReason } from '@solar/shared';

export type ExcludedEnergyKwh = Record<ExcludedEnergyReason, number>;

/** Nothing excluded. */
export const noExcludedEnergy = (): ExcludedEnergyKwh => ({
  counter_jump: 0,
  day_energy_impossible: 0,
  replayed_day: 0,
});

// The day bound is shared with the data-quality detector (detectors/day-energy.ts), so that a day the KPIs
// refuse is exactly a day the detector flags.
export { DAY_ENERGY_MARGIN, dayEnergyLimitKwh, daylightHours, isDayEnergyImpossible } from '@solar/pv-model';

/** Two days' (or periods') excluded energy summed per reason. */
export function addExcludedEnergy(a: ExcludedEnergyKwh, b: ExcludedEnergyKwh): ExcludedEnergyKwh {
  return {
    counter_jump: a.counter_jump + b.counter_jump,
    day_energy_impossible: a.day_energy_impossible + b.day_energy_impossible,
    replayed_day: a.replayed_day + b.replayed_day,
  };
}
