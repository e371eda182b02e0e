import type { DegradationResult, PlantPerformanceAnswer } from '@solar/shared';

/** Pure helpers of the performance card: what degradation shows, the sparkline's geometry and the form's unit conversions. */

type Degradation = PlantPerformanceAnswer['degradation'];
type DegradationFound = Extract<DegradationResult, { status: 'ok' }>;

/** What the card says about degradation: said once when the plant lacks data, inverters only with a rate. */
export interface DegradationView {
  /** The plant's rate, or null when it has too little data. */
  plant: DegradationFound | null;
  /** The plant's months of data (and their first and last day) and the months needed, when too few. */
  notEnough: { found: number; needed: number; from: string | null; to: string | null } | null;
  /** The inverters that have a rate, in the answer's order. */
  inverters: { device_id: number; name: string; result: DegradationFound }[];
  /** How many inverters have too little data (not listed one by one: they all lack the same history). */
  invertersWithout: number;
}

export function degradationView(degradation: Degradation): DegradationView {
  const { plant } = degradation;
  const inverters = degradation.inverters.flatMap((inv) =>
    inv.result.status === 'ok' ? [{ device_id: inv.device_id, name: inv.name, result: inv.result }] : [],
  );
  return {
    plant: plant.status === 'ok' ? plant : null,
    notEnough:
      plant.status === 'insufficient_data'
        ? { found: plant.months_found, needed: plant.months_needed, from: plant.from, to: plant.to }
        : null,
    inverters,
    invertersWithout: degradation.inverters.length - inverters.length,
  };
}

/** Points of the soiling ratio sparkline, at most `maxPoints` (each the lowest ratio of its slice of days). */
export function sparklinePoints(
  series: readonly { date: string; ratio: number }[],
  width: number,
  height: number,
  maxPoints = 120,
): string {
  if (series.length === 0) return '';
  const step = Math.max(1, Math.ceil(series.length / maxPoints));
  const values: number[] = [];
  for (let i = 0; i < series.length; i += step)
    values.push(Math.min(...series.slice(i, i + step).map((p) => p.ratio)));
  const low = Math.min(...values, 0.9);
  const span = 1 - low || 1;
  const dx = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => `${(i * dx).toFixed(1)},${(((1 - v) / span) * height).toFixed(1)}`).join(' ');
}

/** A fraction as a percentage for the form (0.14 → 14), rounded to hide float noise. */
export const toPercent = (fraction: number | null | undefined): number | null =>
  fraction === null || fraction === undefined ? null : Math.round(fraction * 1e8) / 1e6;

/** A percentage from the form as a fraction (14 → 0.14). */
export const toFraction = (percent: number | null | undefined): number | null =>
  percent === null || percent === undefined ? null : Math.round(percent * 1e6) / 1e8;
