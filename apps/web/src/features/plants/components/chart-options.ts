import type { PlantKpisAnswer, PlantPowerAnswer } from '@solar/shared';

/** A period's losses by kind (kWh). */
type KpiLossesSchemaLike = PlantKpisAnswer['losses'];
import type { ChartOption } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { formatInZone, formatPlantTime, zoneLabel } from '../../../lib/plant-time';

/** Value-axis labels in the interface language's digits (ECharts writes 4,000 whatever the language). */
const valueLabels = (language: string) => ({ formatter: (v: number) => formatNumber(v, language, 2) });

/** Colours of the series, readable on the light and the dark background. */
const COLOURS = {
  actual: '#1677ff',
  expected: '#faad14',
  poa: '#eb2f96',
  pr: '#52c41a',
  loss: '#ff4d4f',
  gain: '#13c2c2',
  meter: '#722ed1',
};

/** The power chart's series names: the inverters' sum and the meter are named as what they are. */
export interface PowerLabels {
  inverterSum: string;
  meter: string;
  expected: string;
  poa: string;
}

/** The energy chart's series names: the energy's, naming its source, and the PR line's. */
export interface EnergyLabels {
  energy: string;
  pr: string;
}

/** Whether a day's power answer has any meter reading (then the meter's curve is drawn beside the inverters'). */
export const hasMeterPower = (answer: PlantPowerAnswer): boolean =>
  answer.points.some((p) => p.meter_power_kw !== null);

/** The power chart's series names, in the order it draws them (for its accessible label). */
export function powerSeriesNames(answer: PlantPowerAnswer, labels: PowerLabels): string[] {
  return [...(hasMeterPower(answer) ? [labels.meter] : []), labels.inverterSum, labels.expected, labels.poa];
}

/**
 * The plant's zone when the reader's clock differs from it during the day the power chart shows (its
 * first and last point, or the day's noon without points), else null.
 */
export function powerClockZone(answer: PlantPowerAnswer): string | null {
  const ts = answer.points.map((p) => Date.parse(p.ts));
  const noon = Date.parse(answer.date) + 12 * 3_600_000;
  return zoneLabel(answer.time_zone, ts.length ? [ts[0]!, ts.at(-1)!] : [noon]);
}

/**
 * A day's 5-minute power (kW, left axis): the meter's export where the plant has one (the plant's energy
 * in its KPIs), the inverters' sum (the difference is cable, transformer and own-use loss) and the
 * expected power; POA irradiance (W/m², right axis).
 */
export function powerOption(answer: PlantPowerAnswer, labels: PowerLabels, language: string): ChartOption {
  const ts = (p: { ts: string }) => Date.parse(p.ts);
  const zone = answer.time_zone;
  // The axis runs on the plant's clock; its name says whose clock when the reader's differs.
  const axisZone = powerClockZone(answer);
  return {
    grid: { left: 8, right: 8, top: 48, bottom: axisZone ? 28 : 8, containLabel: true },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        const first = list[0] as { value?: unknown } | undefined;
        const at = Array.isArray(first?.value) ? Number(first.value[0]) : NaN;
        const lines = list.map((p) => {
          const v = Array.isArray(p.value) ? (p.value[1] as number | null) : null;
          const unit = p.seriesName === labels.poa ? 'W/m²' : 'kW';
          return `${typeof p.marker === 'string' ? p.marker : ''} ${p.seriesName ?? ''}: <b>${formatNumber(v, language, 1)} ${unit}</b>`;
        });
        return [Number.isNaN(at) ? '' : formatPlantTime(at, zone, language, 'time'), ...lines].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      axisLabel: { formatter: (v: number) => formatInZone(v, zone, language, 'time'), hideOverlap: true },
      ...(axisZone ? { name: axisZone, nameLocation: 'middle' as const, nameGap: 28 } : {}),
    },
    yAxis: [
      {
        type: 'value',
        axisLabel: valueLabels(language),
        name: 'kW',
        nameTextStyle: { align: 'left' },
        axisLine: { show: true },
      },
      {
        type: 'value',
        axisLabel: valueLabels(language),
        name: 'W/m²',
        nameTextStyle: { align: 'right' },
        position: 'right',
        splitLine: { show: false },
        axisLine: { show: true },
      },
    ],
    series: [
      ...(hasMeterPower(answer)
        ? [
            {
              type: 'line' as const,
              name: labels.meter,
              showSymbol: false,
              color: COLOURS.meter,
              data: answer.points.map((p) => [ts(p), p.meter_power_kw]),
            },
          ]
        : []),
      {
        type: 'line',
        name: labels.inverterSum,
        showSymbol: false,
        color: COLOURS.actual,
        areaStyle: { opacity: 0.15 },
        data: answer.points.map((p) => [ts(p), p.actual_power_kw]),
      },
      {
        type: 'line',
        name: labels.expected,
        showSymbol: false,
        color: COLOURS.expected,
        lineStyle: { type: 'dashed' },
        data: answer.points.map((p) => [ts(p), p.expected_power_kw]),
      },
      {
        type: 'line',
        name: labels.poa,
        showSymbol: false,
        yAxisIndex: 1,
        color: COLOURS.poa,
        lineStyle: { width: 1 },
        data: answer.points.map((p) => [ts(p), p.poa_w_m2]),
      },
    ],
  };
}

/**
 * A month's daily or a year's monthly energy (bars, kWh) with PR (line, %, right axis). The bars are the
 * KPI engine's energy; `labels.energy` names its source (energySourceLabel).
 */
export function energyPrOption(
  answer: PlantKpisAnswer,
  categories: string[],
  labels: EnergyLabels,
  language: string,
): ChartOption {
  return {
    grid: { left: 8, right: 8, top: 48, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => formatNumber(typeof v === 'number' ? v : null, language, 1),
    },
    xAxis: { type: 'category', data: categories },
    yAxis: [
      {
        type: 'value',
        axisLabel: valueLabels(language),
        name: 'kWh',
        nameTextStyle: { align: 'left' },
        axisLine: { show: true },
      },
      {
        type: 'value',
        axisLabel: valueLabels(language),
        name: '%',
        position: 'right',
        min: 0,
        max: 120,
        splitLine: { show: false },
        axisLine: { show: true },
      },
    ],
    series: [
      {
        type: 'bar',
        name: `${labels.energy} (kWh)`,
        color: COLOURS.actual,
        data: answer.rows.map((r) => r.energy_kwh),
      },
      {
        type: 'line',
        name: `${labels.pr} (%)`,
        yAxisIndex: 1,
        color: COLOURS.pr,
        connectNulls: false,
        data: answer.rows.map((r) => (r.pr === null ? null : r.pr * 100)),
      },
    ],
  };
}

/** The steps from expected to actual energy, in the order the waterfall draws them. */
export const LOSS_STEPS = [
  'downtime',
  'communication_gap',
  'clipping',
  'grid_curtailment',
  'underperformance',
] as const;
/** A waterfall's loss bars: the KPI's kinds and soiling, carved out of underperformance when estimated. */
export type LossStep = (typeof LOSS_STEPS)[number] | 'soiling';

/**
 * Energy under this (kWh) shows as 0 at the label's one decimal: a loss that small below zero is no energy
 * above expectation worth a bar of its own.
 */
const NEGLIGIBLE_KWH = 0.05;

/**
 * One bar of the waterfall: the expected and actual totals, a loss (falling), or the energy the plant
 * made above its model's expectation (rising). Every `kwh` is a magnitude, never negative.
 */
export interface WaterfallStep {
  key: 'expected' | LossStep | 'above' | 'actual';
  kind: 'total' | 'loss' | 'above';
  kwh: number;
}

/**
 * The waterfall's bars from expected to actual energy. A loss kind below zero is energy above the model
 * (a cold bright day beating the 14 % system losses): it is not drawn as a negative loss nor as a rising
 * bar of its kind, but added to one "above expectation" bar after the losses, so every loss bar falls and
 * the bars still add up (expected − losses + above = actual).
 */
export function waterfallSteps(
  expectedKwh: number,
  actualKwh: number,
  losses: KpiLossesSchemaLike,
  /** The period's soiling loss when estimated: shown before underperformance and taken out of it. */
  soilingKwh: number | null = null,
): WaterfallStep[] {
  const steps: WaterfallStep[] = [{ key: 'expected', kind: 'total', kwh: expectedKwh }];
  let aboveKwh = 0;
  const keys: LossStep[] =
    soilingKwh === null ? [...LOSS_STEPS] : [...LOSS_STEPS.slice(0, 4), 'soiling', 'underperformance'];
  for (const key of keys) {
    const kwh =
      key === 'soiling'
        ? soilingKwh!
        : key === 'underperformance'
          ? losses.underperformance_kwh - (soilingKwh ?? 0)
          : losses[`${key}_kwh`];
    if (kwh <= -NEGLIGIBLE_KWH) aboveKwh -= kwh;
    else steps.push({ key, kind: 'loss', kwh: Math.max(kwh, 0) });
  }
  if (aboveKwh > 0) steps.push({ key: 'above', kind: 'above', kwh: aboveKwh });
  steps.push({ key: 'actual', kind: 'total', kwh: actualKwh });
  return steps;
}

/** The energy above expectation of a waterfall's steps, 0 when the plant did not beat its model. */
export const aboveExpectationKwh = (steps: readonly WaterfallStep[]): number =>
  steps.find((s) => s.kind === 'above')?.kwh ?? 0;

/**
 * A waterfall from expected to actual energy (waterfallSteps): each loss a red bar hanging from the running
 * total, the energy above expectation a rising bar of its own colour and name, the totals standing on
 * zero. Every bar carries its value (kWh in the interface language's digits; `narrow`: on two lines, for a
 * phone); the tooltip adds each step's share of the expected energy.
 */
export function waterfallOption(
  steps: readonly WaterfallStep[],
  names: { expected: string; actual: string; above: string; steps: Record<LossStep, string> },
  language: string,
  narrow = false,
): ChartOption {
  const nameOf = (key: WaterfallStep['key']) =>
    key === 'expected' || key === 'actual' || key === 'above' ? names[key] : names.steps[key];
  const base: (number | null)[] = [];
  const total: (number | null)[] = [];
  const down: (number | null)[] = [];
  const up: (number | null)[] = [];
  let running = 0;
  for (const step of steps) {
    const own = (series: (number | null)[]) =>
      [total, down, up].forEach((s) => s.push(s === series ? step.kwh : null));
    if (step.kind === 'total') {
      base.push(0);
      own(total);
      running = step.kwh;
    } else if (step.kind === 'loss') {
      running -= step.kwh;
      base.push(running);
      own(down);
    } else {
      base.push(running);
      own(up);
      running += step.kwh;
    }
  }
  const expectedKwh = steps[0]?.kwh ?? 0;
  // Whole kWh from 100 up, the tooltip keeps the decimal; on a phone the unit goes under the number, so
  // that neighbouring labels of bars a few pixels wide do not run into each other.
  const short = (kwh: number) =>
    `${formatNumber(kwh, language, kwh >= 100 ? 0 : 1)}${narrow ? '\n' : ' '}kWh`;
  const label = (position: 'top' | 'bottom') => ({
    show: true,
    position,
    fontSize: narrow ? 9 : 10,
    // Set, or the SVG renderer draws a label's second line over its first.
    lineHeight: narrow ? 11 : 12,
    formatter: (p: { value?: unknown }) => (typeof p.value === 'number' ? short(p.value) : ''),
  });
  return {
    grid: { left: 8, right: 8, top: 36, bottom: 20, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      extraCssText: 'max-width: 320px; white-space: normal;',
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        const step = steps[list[0]?.dataIndex ?? 0]!;
        const share =
          expectedKwh > 0 ? ` (${formatNumber((step.kwh / expectedKwh) * 100, language, 1)} %)` : '';
        return `${nameOf(step.key)}: <b>${formatNumber(step.kwh, language, 1)} kWh</b>${share}`;
      },
    },
    xAxis: {
      type: 'category',
      data: steps.map((s) => nameOf(s.key)),
      axisLabel: { interval: 0, rotate: 30, hideOverlap: false },
    },
    yAxis: { type: 'value', axisLabel: valueLabels(language), name: 'kWh', nameTextStyle: { align: 'left' } },
    series: [
      { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: base },
      { type: 'bar', stack: 'w', color: COLOURS.actual, label: label('top'), data: total },
      { type: 'bar', stack: 'w', color: COLOURS.loss, label: label('bottom'), data: down },
      { type: 'bar', stack: 'w', color: COLOURS.gain, label: label('top'), data: up },
    ],
  };
}
