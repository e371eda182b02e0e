import { useEffect, useRef } from 'react';
import { initChart, type ChartOption, type EChartsInstance } from './echarts-core';
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
}

/** A chart from a ready ECharts option, in the app theme, resized with its box: for charts beyond telemetry lines. */
export function OptionChart({ option, dark, testId, points, label, height = 320 }: OptionChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsInstance | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const instance = initChart(element, dark);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption(
      { backgroundColor: 'transparent', animation: false, ...option },
      { notMerge: true },
    );
  }, [option, dark]);

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
