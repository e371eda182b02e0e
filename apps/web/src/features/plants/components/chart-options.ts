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
export type LossStep = (typeof LOSS_STEPS)[number];

/**
 * A waterfall from expected to actual energy: each loss a floating bar hanging from the running total
 * (a negative underperformance, the plant beating the model, rises instead); the tooltip gives each
 * step's energy and its share of the expected energy.
 */
export function waterfallOption(
  expectedKwh: number,
  actualKwh: number,
  losses: KpiLossesSchemaLike,
  names: { expected: string; actual: string; steps: Record<LossStep, string> },
  language: string,
): ChartOption {
  const keys = ['expected', ...LOSS_STEPS, 'actual'] as const;
  const base: (number | null)[] = [];
  const up: (number | null)[] = [];
  const down: (number | null)[] = [];
  let running = expectedKwh;
  base.push(0);
  up.push(expectedKwh);
  down.push(null);
  for (const step of LOSS_STEPS) {
    const loss = losses[`${step}_kwh`];
    if (loss >= 0) {
      running -= loss;
      base.push(running);
      down.push(loss);
      up.push(null);
    } else {
      base.push(running);
      up.push(-loss);
      down.push(null);
      running -= loss;
    }
  }
  base.push(0);
  up.push(actualKwh);
  down.push(null);
  return {
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      extraCssText: 'max-width: 320px; white-space: normal;',
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        const index = list[0]?.dataIndex ?? 0;
        const key = keys[index]!;
        const value = key === 'expected' ? expectedKwh : key === 'actual' ? actualKwh : losses[`${key}_kwh`];
        const name = key === 'expected' ? names.expected : key === 'actual' ? names.actual : names.steps[key];
        const share = expectedKwh > 0 ? ` (${formatNumber((value / expectedKwh) * 100, language, 1)} %)` : '';
        return `${name}: <b>${formatNumber(value, language, 1)} kWh</b>${share}`;
      },
    },
    xAxis: {
      type: 'category',
      data: keys.map((k) =>
        k === 'expected' ? names.expected : k === 'actual' ? names.actual : names.steps[k],
      ),
      axisLabel: { interval: 0, rotate: 30, hideOverlap: false },
    },
    yAxis: { type: 'value', axisLabel: valueLabels(language), name: 'kWh', nameTextStyle: { align: 'left' } },
    series: [
      { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: base },
      { type: 'bar', stack: 'w', color: COLOURS.actual, data: up },
      { type: 'bar', stack: 'w', color: COLOURS.loss, data: down },
    ],
  };
}
