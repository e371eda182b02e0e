import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  type DataZoomComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

let registered = false;

/**
 * A chart on the element in the app's theme. The first call registers, once for every chart of the app,
 * only the line and bar charts and the components they use, which keeps the lazily loaded chunk small.
 * Registering here rather than at module top level keeps it from being dropped or reordered by the
 * bundler when a chart module only needs this function.
 */
export function initChart(element: HTMLElement, dark: boolean): echarts.ECharts {
  if (!registered) {
    echarts.use([
      LineChart,
      BarChart,
      GridComponent,
      TooltipComponent,
      LegendComponent,
      DataZoomComponent,
      MarkLineComponent,
      CanvasRenderer,
    ]);
    registered = true;
  }
  return echarts.init(element, dark ? 'dark' : undefined, { renderer: 'canvas' });
}

/** A chart instance. */
export type EChartsInstance = echarts.ECharts;

/** An option of any chart registered above. */
export type ChartOption = echarts.ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
>;
