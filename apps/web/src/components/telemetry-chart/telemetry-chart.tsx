import { useMemo } from 'react';
import type { ChartOption } from './echarts-core';
import { useEChart } from './use-echart';
import type { TelemetrySeries } from '@solar/shared';
import { formatNumber } from '../../lib/format';
import './telemetry-chart.css';
import { formatPlantTime } from '../../lib/plant-time';
import { extentOf, plantClockAxis } from '../../lib/plant-time-axis';
import { signalName } from '../../lib/signal-name';

type Option = ChartOption;

/** Units with an axis of their own; the others share one more axis. */
const OWN_AXES = 3;
const AXIS_OFFSET = 56;

export interface TelemetryChartProps {
  series: readonly TelemetrySeries[];
  dark: boolean;
  /** Interface language, for numbers and times in the tooltip. */
  language: string;
  /** The plant's IANA zone: the axis and the tooltip read the plant's clock (lib/plant-time.ts). */
  timeZone: string;
  /** The title of the shared axis of the units beyond the first three. */
  otherUnitsLabel: string;
  /** A vertical line at this moment (epoch ms), e.g. when an alarm began. */
  markAt?: number;
  /** The mark line's label. */
  markLabel?: string;
  /** The chart element's test id; `telemetry-chart` unless told. */
  testId?: string;
}

/** `device · signal` as the legend names a series. */
export const seriesName = (s: TelemetrySeries): string => `${s.device_name} · ${signalName(s)}`;

/** The y-axis of each unit: the first three units in order of appearance get their own, the rest share one. */
export function axesOf(series: readonly TelemetrySeries[]): {
  units: string[];
  axisOf: (s: TelemetrySeries) => number;
} {
  const units: string[] = [];
  for (const s of series) {
    const unit = s.unit ?? '';
    if (!units.includes(unit)) units.push(unit);
  }
  return { units, axisOf: (s) => Math.min(units.indexOf(s.unit ?? ''), OWN_AXES) };
}

function optionOf({
  series,
  language,
  timeZone,
  otherUnitsLabel,
  markAt,
  markLabel,
}: TelemetryChartProps): Option {
  const { units, axisOf } = axesOf(series);
  const axisCount = Math.min(units.length, OWN_AXES + 1);
  const [first, last] = extentOf(series);
  // The zone's name, when shown, sits between the labels and the zoom slider: the grid leaves room for it.
  const { xAxis } = plantClockAxis(timeZone, language, first, last);
  const left = Math.ceil(axisCount / 2);
  const right = Math.floor(axisCount / 2);
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: {
      left: 16 + (left - 1) * AXIS_OFFSET,
      right: 16 + Math.max(0, right - 1) * AXIS_OFFSET,
      top: 48,
      bottom: 72,
      containLabel: true,
    },
    legend: { type: 'scroll', top: 0 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'cross' },
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        const first = list[0] as { value?: unknown } | undefined;
        const ts = Array.isArray(first?.value) ? Number(first.value[0]) : NaN;
        const lines = list.map((p) => {
          const value = Array.isArray(p.value) ? (p.value[1] as number | null) : null;
          const s = series[p.seriesIndex ?? 0];
          const unit = s?.unit ? ` ${s.unit}` : '';
          return `${typeof p.marker === 'string' ? p.marker : ''} ${p.seriesName ?? ''}: <b>${formatNumber(value, language)}${unit}</b>`;
        });
        const at = Number.isNaN(ts) ? '' : formatPlantTime(ts, timeZone, language, 'dateTimeSeconds');
        return [at, ...lines].join('<br/>');
      },
    },
    // On a phone the time labels would overlap: ECharts drops the ones that would.
    xAxis,
    yAxis: Array.from({ length: axisCount }, (_, i) => ({
      type: 'value' as const,
      name: i < OWN_AXES ? units[i] || undefined : otherUnitsLabel,
      position: i % 2 === 0 ? ('left' as const) : ('right' as const),
      offset: Math.floor(i / 2) * AXIS_OFFSET,
      alignTicks: true,
      // In the interface language's digits (ECharts writes 4,000 whatever the language).
      axisLabel: { formatter: (v: number) => formatNumber(v, language, 2) },
      splitLine: { show: i === 0 },
      axisLine: { show: true },
    })),
    dataZoom: [
      { type: 'inside', filterMode: 'none' },
      { type: 'slider', filterMode: 'none', bottom: 16 },
    ],
    series: series.map((s, i) => ({
      type: 'line' as const,
      name: seriesName(s),
      yAxisIndex: axisOf(s),
      showSymbol: false,
      connectNulls: false,
      sampling: 'lttb' as const,
      data: s.points,
      ...(i === 0 && markAt !== undefined
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { color: '#ff4d4f', type: 'dashed' as const, width: 2 },
              label: { formatter: markLabel ?? '', position: 'insideEndTop' as const },
              data: [{ xAxis: markAt }],
            },
          }
        : {}),
    })),
  };
}

/** The telemetry line chart: zoom and pan, one y-axis per unit, legend, plant-clock axis and tooltip, app theme. */
export function TelemetryChart(props: TelemetryChartProps) {
  const {
    dark,
    series,
    language,
    timeZone,
    otherUnitsLabel,
    markAt,
    markLabel,
    testId = 'telemetry-chart',
  } = props;

  // Only new data, language or theme redraw (and reset the zoom); other renders leave the chart alone.
  const option = useMemo(
    () => optionOf({ series, dark, language, timeZone, otherUnitsLabel, markAt, markLabel }),
    [series, dark, language, timeZone, otherUnitsLabel, markAt, markLabel],
  );
  const host = useEChart(option, dark);

  return (
    <div
      ref={host}
      className="telemetry-chart"
      data-testid={testId}
      data-series-count={series.length}
      data-zone={timeZone}
      data-points={series.reduce((n, s) => n + s.points.length, 0)}
    />
  );
}
