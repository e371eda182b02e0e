import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { initChart, type ChartOption, type ChartRenderer, type EChartsInstance } from './echarts-core';

/**
 * One ECharts instance on the returned element, in the app theme, language and renderer (made again when
 * any changes), resized with its box and disposed with the component. `option` replaces the chart's whole
 * option when it or the theme changes: callers memoise it, so other renders leave the chart (and its zoom)
 * alone.
 */
export function useEChart(
  option: ChartOption,
  dark: boolean,
  renderer: ChartRenderer = 'canvas',
): RefObject<HTMLDivElement | null> {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsInstance | null>(null);
  const { language } = useTranslation().i18n;

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const instance = initChart(element, dark, language, renderer);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark, language, renderer]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, dark, language, renderer]);

  return host;
}
