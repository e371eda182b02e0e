import { lazy } from 'react';

export type { ChartBand, TelemetryChartProps } from './telemetry-chart';
export type { OptionChartProps } from './option-chart';
export type { ChartOption } from './echarts-core';

/**
 * The telemetry line chart, loaded on first render: ECharts is the heaviest piece of any page that shows
 * it, so it stays out of the page's own chunk. Render it inside a Suspense boundary.
 */
export const TelemetryChart = lazy(() =>
  import('./telemetry-chart').then((m) => ({ default: m.TelemetryChart })),
);

export type { BarChartBar, BarChartProps } from './bar-chart';

/** The comparison bar chart, loaded on first render like the line chart (same ECharts chunk). */
export const BarChart = lazy(() => import('./bar-chart').then((m) => ({ default: m.BarChart })));

/** A chart from a ready ECharts option (bars, lines, two axes), loaded on first render like TelemetryChart. */
export const OptionChart = lazy(() => import('./option-chart').then((m) => ({ default: m.OptionChart })));
