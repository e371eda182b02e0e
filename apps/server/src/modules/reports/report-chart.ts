import type { Chart } from './report-document';

/** Colours of the console's charts (Ant Design's palette), in series order. */
const COLORS = ['#1677ff', '#faad14', '#52c41a', '#eb2f96', '#13c2c2'];

/**
 * A bar chart as SVG, rendered on the server with ECharts' server-side renderer (no DOM, no canvas).
 * Loaded on first use: most requests never draw a chart.
 */
export async function chartSvg(
  chart: Chart,
  widthPx: number,
  heightPx: number,
  fontFamily: string,
): Promise<string> {
  const echarts = await import('echarts');
  const instance = echarts.init(null, null, { renderer: 'svg', ssr: true, width: widthPx, height: heightPx });
  try {
    instance.setOption({
      animation: false,
      color: COLORS,
      textStyle: { fontFamily, fontSize: 10 },
      title: { text: chart.title, left: 0, textStyle: { fontFamily, fontSize: 12 } },
      legend: { top: 0, right: 0, textStyle: { fontFamily, fontSize: 10 } },
      grid: { left: 60, right: 10, top: 36, bottom: chart.categories.length > 8 ? 80 : 30 },
      xAxis: {
        type: 'category',
        data: chart.categories,
        axisLabel: { fontFamily, fontSize: 9, rotate: chart.categories.length > 8 ? 45 : 0, interval: 0 },
      },
      yAxis: {
        type: 'value',
        name: chart.unit,
        nameTextStyle: { fontFamily },
        axisLabel: { fontFamily, fontSize: 9 },
      },
      series: chart.series.map((s) => ({ type: 'bar', name: s.name, data: s.values })),
    });
    return instance.renderToSVGString();
  } finally {
    instance.dispose();
  }
}
