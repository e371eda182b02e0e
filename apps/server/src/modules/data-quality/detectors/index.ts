import type { DetectedFlag, PlantDay, PlantDayInput, SignalSeries } from './types';

export type * from './types';

/**
 * Missing readings: every stretch between two readings (or between the day's edges and its first and last
 * reading) longer than twice the expected interval is a gap; `detail.missing` is how many readings it lacks.
 */
export function detectGaps(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  const step = series.expectedIntervalMs;
  if (step === null || step <= 0) return [];
  const flags: DetectedFlag[] = [];
  const edges = [plant.dayStartMs - step, ...series.readings.map((r) => r.ts), plant.dayEndMs];
  for (let i = 1; i < edges.length; i++) {
    const fromMs = edges[i - 1]! + step;
    const toMs = edges[i]!;
    const missing = Math.round((toMs - fromMs) / step);
    if (toMs - edges[i - 1]! > 2 * step && missing > 0)
      flags.push({
        signalId: series.signalId,
        deviceId: series.deviceId,
        reason: 'gap',
        fromMs,
        toMs,
        readings: 0,
        detail: { missing },
      });
  }
  return flags;
}

/** Every flag of one signal over its plant's local day. */
export function detectSignalDay(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  return detectGaps(series, plant);
}

/** Every flag of a plant's local day: each signal's own, then those found by comparing signals and days. */
export function detectPlantDay(input: PlantDayInput): DetectedFlag[] {
  return input.series.flatMap((s) => detectSignalDay(s, input.plant));
}
