import { useMemo } from 'react';
import type { ChartOption, ChartRenderer } from './echarts-core';
import { useEChart } from './use-echart';
import './telemetry-chart.css';

export interface OptionChartProps {
  /** The whole chart option; a new object redraws the chart. */
  option: ChartOption;
  dark: boolean;
  /** The chart element's test id. */
  testId: string;
  /** How many data points the option draws, for tests and as a quick sanity figure. */
  points: number;
  /** The chart's accessible name (the canvas itself says nothing to a screen reader). */
  label: string;
  height?: number;
  /** Canvas unless the chart is a few bars whose labels should be text in the page (ChartRenderer). */
  renderer?: ChartRenderer;
}

/** A chart from a ready ECharts option, in the app theme, resized with its box: for charts beyond telemetry lines. */
export function OptionChart({
  option,
  dark,
  testId,
  points,
  label,
  height = 320,
  renderer = 'canvas',
}: OptionChartProps) {
  const themed = useMemo(() => ({ backgroundColor: 'transparent', animation: false, ...option }), [option]);
  const host = useEChart(themed, dark, renderer);

  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      className="telemetry-chart"
      style={{ height }}
      data-testid={testId}
      data-points={points}
    />
  );
}
