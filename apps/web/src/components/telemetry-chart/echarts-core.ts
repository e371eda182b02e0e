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
import * as core from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * ECharts with what the console's charts draw registered once (lines and bars with zoom, legend, tooltip and
 * a time mark): every chart of this folder imports it from here, so the chart chunk stays small. The
 * registration is part of the exported value because this folder is marked free of side effects for the
 * bundler, which would drop a bare `use` call.
 */
export const echarts = (() => {
  core.use([
    LineChart,
    BarChart,
    GridComponent,
    TooltipComponent,
    LegendComponent,
    DataZoomComponent,
    MarkLineComponent,
    CanvasRenderer,
  ]);
  return core;
})();

/** An option of the registered parts, type-checked. */
export type ChartOption = core.ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
>;
