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
  /** Periods shaded on the series of their signal, e.g. data the quality checks do not believe. */
  bands?: readonly ChartBand[];
  /** The chart element's test id; `telemetry-chart` unless told. */
  testId?: string;
}

/** A period [from, to) (epoch ms) shaded on one signal's series, named in the tooltip. */
export interface ChartBand {
  signalId: number;
  from: number;
  to: number;
  /** What the band means, in the reader's language (the tooltip shows it while the pointer is inside). */
  label: string;
  /** Drawn lighter: a band already dealt with (e.g. an accepted flag). */
  muted: boolean;
}

const BAND_COLOR = 'rgba(250, 140, 22, 0.22)';
const BAND_BORDER = 'rgba(250, 140, 22, 0.6)';
const MUTED_BAND_COLOR = 'rgba(140, 140, 140, 0.12)';
const MUTED_BAND_BORDER = 'rgba(140, 140, 140, 0.45)';

/** ECharts' markArea of one series: its signal's bands, each a shaded span of the x-axis. */
function markAreaOf(bands: readonly ChartBand[]) {
  if (bands.length === 0) return {};
  return {
    markArea: {
      // The axis tooltip names the bands under the pointer; the areas themselves need no events.
      silent: true,
      data: bands.map((b) => [
        {
          xAxis: b.from,
          itemStyle: {
            color: b.muted ? MUTED_BAND_COLOR : BAND_COLOR,
            borderColor: b.muted ? MUTED_BAND_BORDER : BAND_BORDER,
            borderWidth: 1,
            borderType: b.muted ? ('dashed' as const) : ('solid' as const),
          },
        },
        { xAxis: b.to },
      ]) as [{ xAxis: number }, { xAxis: number }][],
    },
  };
}

/** Text made safe for the tooltip's HTML (a label may carry a device's name). */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

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
  bands = [],
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
        const under = bands.filter((b) => ts >= b.from && ts < b.to).map((b) => `▨ ${escapeHtml(b.label)}`);
        return [at, ...lines, ...under].join('<br/>');
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
      ...markAreaOf(bands.filter((b) => b.signalId === s.signal_id)),
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
    bands,
    testId = 'telemetry-chart',
  } = props;

  // Only new data, language or theme redraw (and reset the zoom); other renders leave the chart alone.
  const option = useMemo(
    () => optionOf({ series, dark, language, timeZone, otherUnitsLabel, markAt, markLabel, bands }),
    [series, dark, language, timeZone, otherUnitsLabel, markAt, markLabel, bands],
  );
  const host = useEChart(option, dark);

  return (
    <div
      ref={host}
      className="telemetry-chart"
      data-testid={testId}
      data-series-count={series.length}
      data-bands={bands?.length ?? 0}
      data-zone={timeZone}
      data-points={series.reduce((n, s) => n + s.points.length, 0)}
    />
  );
}
