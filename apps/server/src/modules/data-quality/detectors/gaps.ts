import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/**
 * Missing readings: every stretch between two readings (or between the day's edges and its first and last
 * reading) longer than twice the expected interval is a gap; `detail.missing` is how many readings it lacks.
 * The day's edges are the plant's local midnights in UTC milliseconds, so a 23 h or 25 h DST day expects
 * 276 or 300 five-minute readings without any special case (IEC 61724-1:2021 §5.4 data availability counts
 * against the interval, not against a 24 h clock).
 */
export function detectGaps(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  const step = series.expectedIntervalMs;
  if (step === null || step <= 0) return [];
  const flags: DetectedFlag[] = [];
  const r = series.readings;
  // Edges: the slot before the day, every reading, the day's end; walked without building the list.
  let before = plant.dayStartMs - step;
  for (let i = 0; i <= r.length; i++) {
    const toMs = i < r.length ? r[i]!.ts : plant.dayEndMs;
    const fromMs = before + step;
    const gapMs = toMs - before;
    before = toMs;
    if (gapMs <= 2 * step) continue;
    const missing = Math.round((toMs - fromMs) / step);
    if (missing > 0)
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
