import { flagOver, round, runsWhere, stepMs } from './common';
import type { DetectedFlag, PlantDay, SignalSeries } from './types';

/** A straight line over this many equal steps (6 readings) is a logger's gap filling. */
export const INTERPOLATED_MIN_STEPS = 5;
/** Each step must be at least this many times the day's smallest non-zero step (the stored resolution). */
export const INTERPOLATED_MIN_QUANTA = 5;
/** The run must move the value by this share of the day's range, so quantised plateaus do not count. */
export const INTERPOLATED_MIN_CHANGE_SHARE = 0.05;

/**
 * Interpolated data: runs of at least 5 consecutive steps with the same non-zero slope (value change per
 * millisecond equal within a relative 1e-6), i.e. second differences of zero, as a logger's linear gap
 * filling produces — the idea of pvanalytics `gaps.interpolation_diff`. Constant runs are stale.ts's and
 * steps of fewer than 5 quanta of the day's resolution are chance on a quantised signal, and
 * counters are left out (their steps are nearly equal whenever power is steady, e.g. while clipping).
 * The flag covers the readings inside the line (its two ends are the real readings it was drawn between).
 * `detail`: the slope per hour and the run's minutes.
 */
export function detectInterpolated(series: SignalSeries, _plant: PlantDay): DetectedFlag[] {
  if (series.kind === 'energy_counter') return [];
  const r = series.readings;
  const n = r.length;
  const step = stepMs(series);
  if (step === null || n < INTERPOLATED_MIN_STEPS + 1) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const x of r) {
    if (x.value < min) min = x.value;
    if (x.value > max) max = x.value;
  }
  const minChange = INTERPOLATED_MIN_CHANGE_SHARE * (max - min);
  if (!(minChange > 0)) return [];
  const slope = new Float64Array(n - 1);
  let resolution = Infinity;
  for (let i = 0; i < n - 1; i++) {
    const d = r[i + 1]!.value - r[i]!.value;
    slope[i] = d / (r[i + 1]!.ts - r[i]!.ts);
    if (d !== 0 && Math.abs(d) < resolution) resolution = Math.abs(d);
  }
  // Link k joins steps k and k+1: equal, and far above the resolution (a slow signal stored at 0.1 °C
  // climbs by equal steps of one or two quanta by chance).
  const link = (k: number): boolean => {
    const a = slope[k]!;
    const b = slope[k + 1]!;
    const step = Math.abs(r[k + 1]!.value - r[k]!.value);
    return (
      a !== 0 &&
      step >= INTERPOLATED_MIN_QUANTA * resolution &&
      Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b))
    );
  };
  const flags: DetectedFlag[] = [];
  for (const [k0, k1] of runsWhere(n - 2, link, INTERPOLATED_MIN_STEPS - 1)) {
    const from = k0;
    const to = k1 + 2;
    if (Math.abs(r[to]!.value - r[from]!.value) < minChange) continue;
    flags.push(
      flagOver(series, 'interpolated', r, from + 1, to - 1, step, {
        slopePerHour: round(slope[k0]! * 3_600_000),
        minutes: round((r[to]!.ts - r[from]!.ts) / 60_000, 0),
      }),
    );
  }
  return flags;
}
