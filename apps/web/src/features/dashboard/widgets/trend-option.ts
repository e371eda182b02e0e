import type { TelemetrySeries } from '@solar/shared';
import type { ChartOption } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { formatPlantTime } from '../../../lib/plant-time';
import { AXIS_ZONE_PX, extentOf, plantClockAxis } from '../../../lib/plant-time-axis';
import { signalName } from '../../../lib/signal-name';

/**
 * A compact trend of telemetry series for a widget: a time axis, the first unit on the left axis and
 * the second on the right (a third unit shares the right one), a legend of the signal names, no zoom
 * (the data page has that). Its times are on the plant's clock (`timeZone`), the axis named when the
 * reader's clock differs.
 */
export function trendOption(
  series: readonly TelemetrySeries[],
  language: string,
  timeZone: string,
): ChartOption {
  const units: string[] = [];
  for (const s of series) if (!units.includes(s.unit ?? '')) units.push(s.unit ?? '');
  const axisOf = (s: TelemetrySeries) => Math.min(1, units.indexOf(s.unit ?? ''));
  const [first, last] = extentOf(series);
  const { xAxis, zone } = plantClockAxis(timeZone, language, first, last);
  return {
    grid: {
      left: 8,
      right: 8,
      top: series.length > 1 ? 40 : 24,
      bottom: zone ? 8 + AXIS_ZONE_PX : 8,
      containLabel: true,
    },
    legend: series.length > 1 ? { top: 0, type: 'scroll' } : { show: false },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        const first = list[0] as { value?: unknown } | undefined;
        const at = Array.isArray(first?.value) ? Number(first.value[0]) : NaN;
        const lines = list.map((p) => {
          const v = Array.isArray(p.value) ? (p.value[1] as number | null) : null;
          const unit = series[p.seriesIndex ?? 0]?.unit ?? '';
          return `${typeof p.marker === 'string' ? p.marker : ''} ${p.seriesName ?? ''}: <b>${formatNumber(v, language, 1)} ${unit}</b>`;
        });
        return [Number.isNaN(at) ? '' : formatPlantTime(at, timeZone, language), ...lines].join('<br/>');
      },
    },
    xAxis,
    yAxis: units.slice(0, 2).map((unit, i) => ({
      type: 'value' as const,
      name: unit || undefined,
      position: i === 0 ? ('left' as const) : ('right' as const),
      scale: true,
      splitLine: { show: i === 0 },
      axisLabel: { formatter: (v: number) => formatNumber(v, language, 1) },
    })),
    series: series.map((s) => ({
      type: 'line' as const,
      name: signalName(s),
      yAxisIndex: axisOf(s),
      showSymbol: false,
      connectNulls: false,
      sampling: 'lttb' as const,
      data: s.points,
    })),
  };
}
