import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/**
 * Missing readings: every stretch between two readings (or between the day's edges and its first and last
 * reading) longer than twice the expected interval is a gap; `detail.missing` is how many readings it lacks.
 * The day's edges are the plant's local midnights in UTC milliseconds, so a 23 h or 25 h DST day expects
 * 276 or 300 five-minute readings without any special case (IEC 61724-1:2021 §5.4 data availability counts
 * against the interval, not against a 24 h clock).
 *
 * Gaps that only a reading or two apart are one sparse stretch, one flag whose `readings` are the readings
 * inside it: a device meant to report every 30 s whose data arrives every 5 minutes (a logger's averages,
 * imported history) lacks 9 readings in 10 all day long, and that is one finding, not 288 (each a row to
 * store, show and accept).
 */
export function detectGaps(series: SignalSeries, plant: PlantDay): DetectedFlag[] {
  const step = series.expectedIntervalMs;
  if (step === null || step <= 0) return [];
  const flags: DetectedFlag[] = [];
  const r = series.readings;
  // Edges: the slot before the day, every reading, the day's end; walked without building the list.
  let before = plant.dayStartMs - step;
  // Readings since the last gap's end (the reading that ended it included).
  let since = 0;
  for (let i = 0; i <= r.length; i++) {
    const toMs = i < r.length ? r[i]!.ts : plant.dayEndMs;
    const fromMs = before + step;
    const gapMs = toMs - before;
    before = toMs;
    if (gapMs <= 2 * step) {
      since++;
      continue;
    }
    const missing = Math.round((toMs - fromMs) / step);
    if (missing <= 0) continue;
    const last = flags[flags.length - 1];
    if (last && since <= SPARSE_STRETCH_READINGS) {
      last.toMs = toMs;
      last.readings += since;
      last.detail.missing = (last.detail.missing as number) + missing;
    } else {
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
    // The reading that ends this gap (none at the day's end).
    since = i < r.length ? 1 : 0;
  }
  return flags;
}

/** At most this many readings between two gaps make them one sparse stretch. */
const SPARSE_STRETCH_READINGS = 2;
