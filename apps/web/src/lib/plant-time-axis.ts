import { browserTimeZone, formatInZone, zoneLabel, type PlantTimeStyle } from './plant-time';

const DAY_MS = 86_400_000;
/** ECharts' tick units of a day or longer: their ticks are dates, not clock times. */
const DATE_UNITS = new Set(['day', 'month', 'year']);

/** What ECharts tells a time axis's label formatter about the tick (its unit). */
interface TickInfo {
  time?: { lowerTimeUnit?: string };
}

/** The part of a time x-axis that puts it on the plant's clock (ECharts' `xAxis`). */
export interface PlantClockAxis {
  type: 'time';
  axisLabel: { formatter: (value: number, index: number, tick?: TickInfo) => string; hideOverlap: true };
  axisPointer: { label: { formatter: (params: { value: unknown }) => string } };
  name?: string;
  nameLocation?: 'middle';
  nameGap?: number;
}

/** Room the zone's name needs under the axis labels, px: add it to the grid's bottom when `zone` is set. */
export const AXIS_ZONE_PX = 20;

/**
 * A chart's time axis read on the plant's clock (lib/plant-time.ts): ECharts would label its ticks on the
 * browser's clock. Ticks of a day or longer show the plant's date, shorter ones its clock time (with the
 * date when the chart spans more than a day). The axis carries the zone's name when the reader's clock
 * differs at the first or last instant; `zone` is that name, or null, for the caption and the grid.
 */
export function plantClockAxis(
  timeZone: string,
  language: string,
  first: number,
  last: number,
  browserZone = browserTimeZone(),
): { xAxis: PlantClockAxis; zone: string | null } {
  const spansDays = last - first > DAY_MS;
  const styleOf = (tick?: TickInfo): PlantTimeStyle =>
    DATE_UNITS.has(tick?.time?.lowerTimeUnit ?? '') ? 'date' : spansDays ? 'dateTime' : 'time';
  const zone = zoneLabel(timeZone, [first, last], browserZone);
  return {
    zone,
    xAxis: {
      type: 'time',
      axisLabel: {
        formatter: (value, _index, tick) => formatInZone(value, timeZone, language, styleOf(tick)),
        hideOverlap: true,
      },
      // The pointer's label under the axis (a chart with a cross pointer) reads the same clock.
      axisPointer: {
        label: {
          formatter: ({ value }) => formatInZone(Number(value), timeZone, language, 'dateTimeSeconds'),
        },
      },
      ...(zone ? { name: zone, nameLocation: 'middle' as const, nameGap: 28 } : {}),
    },
  };
}

/** The first and last instant of series of `[epoch ms, value]` points (now, twice, without points). */
export function extentOf(
  series: readonly { points: readonly (readonly [number, unknown])[] }[],
): [number, number] {
  let first = Infinity;
  let last = -Infinity;
  for (const s of series) {
    if (s.points.length === 0) continue;
    first = Math.min(first, s.points[0]![0]);
    last = Math.max(last, s.points.at(-1)![0]);
  }
  const now = Date.now();
  return Number.isFinite(first) ? [first, last] : [now, now];
}
