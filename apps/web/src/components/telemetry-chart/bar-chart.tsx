import { useMemo } from 'react';
import type { ChartOption } from './echarts-core';
import { useEChart } from './use-echart';
import { formatNumber } from '../../lib/format';
import './telemetry-chart.css';

export interface BarChartBar {
  label: string;
  value: number | null;
  /** Drawn in the accent colour, the others muted: "this one" among its peers. */
  highlighted?: boolean;
}

export interface BarChartProps {
  bars: readonly BarChartBar[];
  dark: boolean;
  /** Interface language, for the numbers. */
  language: string;
  /** Unit of the values, shown on the axis and in the tooltip. */
  unit: string;
  testId?: string;
}

const ACCENT = '#1677ff';
const MUTED_LIGHT = '#bfbfbf';
const MUTED_DARK = '#595959';

function optionOf({ bars, dark, language, unit }: BarChartProps): ChartOption {
  return {
    backgroundColor: 'transparent',
    animation: false,
    grid: { left: 8, right: 24, top: 32, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => `${formatNumber(typeof v === 'number' ? v : null, language)} ${unit}`,
    },
    // Horizontal bars: long inverter names stay readable on a phone.
    // The unit is in the tooltip and the card's title: an axis name would be clipped on a phone.
    xAxis: { type: 'value' },
    yAxis: { type: 'category', inverse: true, data: bars.map((b) => b.label) },
    series: [
      {
        type: 'bar',
        data: bars.map((b) => ({
          // No value draws no bar (and no label), unlike a real zero.
          value: b.value,
          itemStyle: { color: b.highlighted ? ACCENT : dark ? MUTED_DARK : MUTED_LIGHT },
        })),
        label: {
          show: true,
          position: 'right',
          formatter: (p) => formatNumber(typeof p.value === 'number' ? p.value : null, language),
        },
      },
    ],
  };
}

/** A horizontal bar chart of one value per item, one item highlighted; app theme, resizes with its box. */
export function BarChart(props: BarChartProps) {
  const { bars, dark, language, unit, testId = 'bar-chart' } = props;

  const option = useMemo(() => optionOf({ bars, dark, language, unit }), [bars, dark, language, unit]);
  const host = useEChart(option, dark);

  return (
    <div
      ref={host}
      className="bar-chart"
      data-testid={testId}
      data-bars={bars.length}
      style={{ height: Math.max(160, 48 + bars.length * 36) }}
    />
  );
}
