/** Pure helpers of the performance card: the sparkline's geometry and the form's unit conversions. */

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
