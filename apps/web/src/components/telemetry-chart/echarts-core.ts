import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  type DataZoomComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkAreaComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { monthName, weekdayName } from '../../lib/intl';

let registered = false;
const localesRegistered = new Set<string>();

/**
 * ECharts' names of months and weekdays (its time axis labels) in the interface language, made from the
 * same source as every other date of the console (ECharts ships no Macedonian).
 */
function registerChartLocale(language: string): string {
  if (!localesRegistered.has(language)) {
    const months = (style: 'long' | 'short') =>
      Array.from({ length: 12 }, (_, m) => monthName(m, language, style));
    const days = (style: 'long' | 'short') =>
      Array.from({ length: 7 }, (_, d) => weekdayName(d, language, style));
    const names = {
      time: {
        month: months('long'),
        monthAbbr: months('short'),
        dayOfWeek: days('long'),
        dayOfWeekAbbr: days('short'),
      },
    };
    // Only the names: the console's charts use no toolbox, legend selector or aria texts, the other parts
    // of ECharts' locale type.
    echarts.registerLocale(language, names as unknown as Parameters<typeof echarts.registerLocale>[1]);
    localesRegistered.add(language);
  }
  return language;
}

/**
 * A chart on the element in the app's theme. The first call registers, once for every chart of the app,
 * only the line and bar charts and the components they use, which keeps the lazily loaded chunk small.
 * Registering here rather than at module top level keeps it from being dropped or reordered by the
 * bundler when a chart module only needs this function.
 */
export function initChart(
  element: HTMLElement,
  dark: boolean,
  language: string,
  renderer: ChartRenderer = 'canvas',
): echarts.ECharts {
  if (!registered) {
    echarts.use([
      LineChart,
      BarChart,
      GridComponent,
      TooltipComponent,
      LegendComponent,
      DataZoomComponent,
      MarkLineComponent,
      MarkAreaComponent,
      CanvasRenderer,
      SVGRenderer,
    ]);
    registered = true;
  }
  return echarts.init(element, dark ? 'dark' : undefined, {
    renderer,
    locale: registerChartLocale(language),
  });
}

/**
 * How a chart is drawn: canvas for series of thousands of points; SVG for a chart of a few bars whose
 * value labels are then text in the page (selectable, found by the browser's search and by tests).
 */
export type ChartRenderer = 'canvas' | 'svg';

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
  | MarkAreaComponentOption
>;
