import { IRRADIANCE_KINDS, mergeFlags } from './common';
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
 * Every flag of one signal over its plant's local day, from the detectors that need nothing else (gap,
 * stale, spike, interpolated, out of range, counter faults, irradiance above clear sky and at night);
 * overlapping flags of one reason are merged.
 */
export function detectSignalDay(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  return mergeFlags(
    SIGNAL_DETECTORS.flatMap((detect) => detect(series, plant)),
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
 * Overlapping flags of one reason on one signal are merged (docs/data-quality.md, "Detectors").
 */
export function detectPlantDay(input: PlantDayInput): DetectedFlag[] {
  const { plant, series } = input;
  // A spike of irradiance or power that every peer shares at the same time is a cloud, not a glitch.
  // Candidates under a broken sky (detectSpikes' underBrokenSky) are kept only when the peers refute a cloud.
  const flags: DetectedFlag[] = confirmSolarSpikes(
    [
      ...series.flatMap((s) => detectSignalDay(s, plant)),
      ...series.flatMap((s) => detectSpikes(s, plant, true)),
    ],
    series,
  ).map((f) => (f.detail.unsteadySky === 1 ? { ...f, detail: withoutUnsteadyMark(f.detail) } : f));
  const acPower = series.filter((s) => s.kind === 'ac_power');
  for (const s of series) {
    if (s.kind === 'energy_counter') {
      const power = acPower.find((p) => p.deviceId === s.deviceId);
      if (power) flags.push(...detectStaleCounter(s, power));
    }
    if (IRRADIANCE_KINDS.has(s.kind)) {
      flags.push(...detectPowerDrift(s, acPower, plant));
      flags.push(...detectNeighbourDisagreement(s, input.neighbours, plant));
    }
    const clock = detectClockFault(s, plant);
    flags.push(...(clock.length ? clock : detectClockAgainstPeers(s, series, plant)));
    flags.push(...detectClipping(s, plant));
  }
  flags.push(...detectReplayedDays(input));
  flags.push(...detectDayEnergyImpossible(series, plant));
  return mergeFlags(flags, plant.dayStartMs, plant.dayEndMs);
}
