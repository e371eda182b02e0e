import { SUN_BASED_CHECKS, type SunBasedCheck } from '@solar/shared';
import { IRRADIANCE_KINDS, SOLAR_KINDS, mergeFlags } from './common';
import { detectClipping } from './clipping';
import { detectClockAgainstPeers, detectClockFault } from './clock';
import { detectCounterFaults } from './counters';
import { detectDayEnergyImpossible } from './day-energy';
import { detectGaps } from './gaps';
import {
  detectAboveClearSky,
  detectNeighbourDisagreement,
  detectNightOffset,
  detectPowerDrift,
} from './irradiance';
import { detectInterpolated } from './interpolated';
import { detectSensorDrift } from './sensor-drift';
import { detectOutOfRange } from './range';
import { detectReplayedDays } from './replay';
import { confirmSolarSpikes, detectSpikes } from './spike';
import { detectStale, detectStaleCounter } from './stale';
import type { DetectedFlag, PlantDay, PlantDayInput, SignalSeries } from './types';

export type * from './types';
export { detectGaps } from './gaps';
export { detectStale, detectStaleCounter } from './stale';
export { confirmSolarSpikes, detectSpikes } from './spike';
export { detectInterpolated } from './interpolated';
export { detectOutOfRange } from './range';
export { detectCounterFaults } from './counters';
export { detectClockAgainstPeers, detectClockFault, profileShift } from './clock';
export { detectReplayedDays } from './replay';
export {
  detectAboveClearSky,
  detectNeighbourDisagreement,
  detectNightOffset,
  detectPowerDrift,
} from './irradiance';
export { counterDayEnergyKwh, detectDayEnergyImpossible } from './day-energy';
export { detectClipping } from './clipping';
export { SENSOR_DRIFT_HISTORY_DAYS, dailyRatios, detectSensorDrift, theilSen } from './sensor-drift';

/** The detectors that need only the signal itself and the plant's day (position, capacity). */
const SIGNAL_DETECTORS: ((series: SignalSeries, plant: PlantDay) => DetectedFlag[])[] = [
  detectGaps,
  detectStale,
  detectSpikes,
  detectInterpolated,
  detectOutOfRange,
  detectCounterFaults,
  detectAboveClearSky,
  detectNightOffset,
];

/**
 * The signal's own detectors that do not look at the sun: the only ones a plant without a location runs.
 * Stale irradiance and power are judged in daylight only, and so are their spikes; other kinds' spikes are
 * judged around the clock.
 */
const SUNLESS_SIGNAL_DETECTORS: ((series: SignalSeries, plant: PlantDay) => DetectedFlag[])[] = [
  detectGaps,
  (series, plant) => (SOLAR_KINDS.has(series.kind) ? [] : detectSpikes(series, plant)),
  detectInterpolated,
  detectOutOfRange,
  detectCounterFaults,
];

/** Whether the plant has a position: without one there is no sun to judge its data against. */
export const hasLocation = (plant: Pick<PlantDay, 'latitude' | 'longitude'>): boolean =>
  plant.latitude !== null && plant.longitude !== null;

/**
 * The sun-based checks (SUN_BASED_CHECKS) a plant's days leave out: all of them when it has no location,
 * none otherwise. The answers name them so that a clean day is not read as a clock that was checked.
 */
export const skippedChecks = (plant: Pick<PlantDay, 'latitude' | 'longitude'>): SunBasedCheck[] =>
  hasLocation(plant) ? [] : [...SUN_BASED_CHECKS];

/**
 * Every flag of one signal over its plant's local day, from the detectors that need nothing else (gap,
 * stale, spike, interpolated, out of range, counter faults, irradiance above clear sky and at night; only
 * the sunless ones for a plant without a location); overlapping flags of one reason are merged.
 */
export function detectSignalDay(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  const detectors = hasLocation(plant) ? SIGNAL_DETECTORS : SUNLESS_SIGNAL_DETECTORS;
  return mergeFlags(
    detectors.flatMap((detect) => detect(series, plant)),
    plant.dayStartMs,
    plant.dayEndMs,
  );
}

const withoutUnsteadyMark = ({ unsteadySky: _mark, ...detail }: DetectedFlag['detail']) => detail;

/**
 * Every flag of a plant's local day: each signal's own (less the power and irradiance spikes the plant's
 * other such signals share at the same time: a cloud), then those found by comparing signals and days — a
 * counter that stands still while its device's power flows, irradiance against the plant's power and
 * against neighbours, the clock against the sun, replayed days, impossible day energy and clipping.
 * For a plant without a location the checks against the sun are left out (skippedChecks); the counter,
 * replay and day-energy checks still run (the day bound then takes all 24 hours). Overlapping flags of one reason on one signal are merged (docs/data-quality.md,
 * "Detectors").
 */
export function detectPlantDay(input: PlantDayInput): DetectedFlag[] {
  const { plant, series } = input;
  const sun = hasLocation(plant);
  // A spike of irradiance or power that every peer shares at the same time is a cloud, not a glitch.
  // Candidates under a broken sky (detectSpikes' underBrokenSky) are kept only when the peers refute a cloud.
  const flags: DetectedFlag[] = confirmSolarSpikes(
    [
      ...series.flatMap((s) => detectSignalDay(s, plant)),
      // Without a location there is no sky to judge (the solar kinds' spikes need the sun): none.
      ...(sun ? series.flatMap((s) => detectSpikes(s, plant, true)) : []),
    ],
    series,
  ).map((f) => (f.detail.unsteadySky === 1 ? { ...f, detail: withoutUnsteadyMark(f.detail) } : f));
  const acPower = series.filter((s) => s.kind === 'ac_power');
  const driftFlags: DetectedFlag[] = [];
  for (const s of series) {
    if (s.kind === 'energy_counter') {
      const power = acPower.find((p) => p.deviceId === s.deviceId);
      if (power) flags.push(...detectStaleCounter(s, power));
    }
    if (!sun) continue;
    if (IRRADIANCE_KINDS.has(s.kind)) {
      driftFlags.push(...detectPowerDrift(s, acPower, plant));
      if (input.hourlyHistory?.length)
        driftFlags.push(...detectSensorDrift(s, acPower, plant, input.hourlyHistory));
      flags.push(...detectNeighbourDisagreement(s, input.neighbours, plant));
    }
    const clock = detectClockFault(s, plant);
    flags.push(...(clock.length ? clock : detectClockAgainstPeers(s, series, plant)));
    flags.push(...detectClipping(s, plant));
  }
  const replayed = detectReplayedDays(input);
  // A replayed signal's readings are another day's: against this day's power they disagree by nature, and
  // the replay flag already doubts them all, so no drift flag is raised on them beside it.
  const replayedSignals = new Set(replayed.map((f) => f.signalId));
  flags.push(...replayed, ...driftFlags.filter((f) => !replayedSignals.has(f.signalId)));
  // Without a location the day bound counts every hour as daylight (@solar/pv-model day-energy-bound.ts).
  flags.push(...detectDayEnergyImpossible(series, plant));
  return mergeFlags(flags, plant.dayStartMs, plant.dayEndMs);
}
