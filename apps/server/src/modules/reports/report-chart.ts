import type { LocaleCode } from '@solar/i18n';
import type { Chart } from './report-document';

/** The width of `text` at `sizePx` in the document's font (bold or regular). */
export type TextMeasure = (text: string, sizePx: number, bold: boolean) => number;

const LINE_HEIGHT_PROBE = '国';

/** Colours of the console's charts (Ant Design's palette), in series order. */
const COLORS = ['#1677ff', '#faad14', '#52c41a', '#eb2f96', '#13c2c2'];

export const LOCALE_TAGS = { tr_TR: 'tr-TR', en_US: 'en-US', de_DE: 'de-DE', mk_MK: 'mk-MK' } as const;

/**
 * More categories than this and their labels are turned 45° (a long name then runs down-left, clear of its
 * neighbours); up to this many, a label wraps within its own bar group's width.
 */
const UPRIGHT_LABELS_MAX = 12;

/** True when the chart's category labels are turned (the caller gives such a chart more height). */
export const rotatesLabels = (chart: Chart) => chart.categories.length > UPRIGHT_LABELS_MAX;

/**
 * A bar chart as SVG, rendered on the server with ECharts' server-side renderer (no DOM, no canvas).
 * Loaded on first use: most requests never draw a chart. Axis numbers are written as the report's
 * language writes them (as its tables do); the legend stands under the title, never on it, and the
 * plot shrinks to hold its labels (outer bounds) instead of cutting them at the edge.
 */
export async function chartSvg(
  chart: Chart,
  lang: LocaleCode,
  widthPx: number,
  heightPx: number,
  fontFamily: string,
  measure: TextMeasure,
): Promise<string> {
  const echarts = await import('echarts');
  // Without a canvas ECharts guesses text widths from a generic font; the legend and the labels were laid
  // out for narrower text than DejaVu Sans draws, and ran into each other. The PDF's own font measures them.
  echarts.setPlatformAPI({
    measureText: (text, font) => {
      const match = /(\d+(?:\.\d+)?)px/.exec(font ?? '');
      const size = match ? Number(match[1]) : 12;
      // zrender takes a line's height from the width of '国', a glyph DejaVu lacks: one em and a fifth.
      if (text === LINE_HEIGHT_PROBE) return { width: size * 1.2 };
      return { width: measure(text, size, /bold/.test(font ?? '')) };
    },
  });
  const numbers = new Intl.NumberFormat(LOCALE_TAGS[lang], { maximumFractionDigits: 2 });
  const rotated = rotatesLabels(chart);
  const instance = echarts.init(null, null, { renderer: 'svg', ssr: true, width: widthPx, height: heightPx });
  try {
    instance.setOption({
      animation: false,
      color: COLORS,
      textStyle: { fontFamily, fontSize: 10 },
      title: { text: chart.title, left: 0, top: 0, textStyle: { fontFamily, fontSize: 12 } },
      legend: { top: 20, left: 0, itemHeight: 8, textStyle: { fontFamily, fontSize: 9 } },
      grid: { left: 4, right: 10, top: 58, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
      xAxis: {
        type: 'category',
        data: chart.categories,
        axisLabel: {
          fontFamily,
          fontSize: 8,
          interval: 0,
          ...(rotated
            ? { rotate: 45 }
            : {
                // Names wrap within their slot instead of running into the next one (or being cut).
                width: Math.max((widthPx - 80) / Math.max(chart.categories.length, 1) - 8, 30),
                overflow: 'break',
              }),
        },
      },
      yAxis: {
        type: 'value',
        name: chart.unit,
        nameGap: 10,
        nameTextStyle: { fontFamily, fontSize: 9, align: 'left' },
        axisLabel: { fontFamily, fontSize: 8, formatter: (v: number) => numbers.format(v) },
      },
      series: chart.series.map((s) => ({ type: 'bar', name: s.name, data: s.values })),
    });
    return instance.renderToSVGString();
  } finally {
    instance.dispose();
  }
}
