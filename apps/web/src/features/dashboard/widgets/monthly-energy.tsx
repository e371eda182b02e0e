import { Suspense, useMemo, useState } from 'react';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import type { PlantKpisAnswer } from '@solar/shared';
import { OptionChart, type ChartOption } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { monthName } from '../../../lib/intl';
import { usePlantChartLabels, usePlantKpis } from '../../plants';
import { WidgetFrame, WidgetNeedsSetting, WidgetState } from '../components/widget-frame';
import { budgetOf, yearIn } from '../model/figures';
import { useCatalogPlantMap, withPlant } from './use-plant-names';
import type { WidgetProps } from './types';

/** Years the selector offers, back from the current one. */
const YEARS_OFFERED = 10;
const ENERGY_COLOUR = '#1677ff';
/** Grey: readable on both themes, and the budget is the yardstick, not the news. */
const BUDGET_COLOUR = '#8c8c8c';

/** A year's energy by month as bars (kWh) beside the month's budget where there is one; no data, no bar. */
function monthlyOption(
  answer: PlantKpisAnswer,
  labels: { energy: string; budget: string },
  language: string,
): ChartOption {
  const budgets = answer.rows.map(budgetOf);
  return {
    grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => `${formatNumber(typeof v === 'number' ? v : null, language, 1)} kWh`,
    },
    xAxis: {
      type: 'category',
      data: answer.rows.map((r) => monthName(Number(r.key.slice(5, 7)) - 1, language, 'short')),
    },
    yAxis: {
      type: 'value',
      name: 'kWh',
      axisLabel: { formatter: (v: number) => formatNumber(v, language, 0) },
    },
    series: [
      { type: 'bar', name: labels.energy, color: ENERGY_COLOUR, data: answer.rows.map((r) => r.energy_kwh) },
      ...(budgets.some((b) => b !== null)
        ? [{ type: 'bar' as const, name: labels.budget, color: BUDGET_COLOUR, data: budgets }]
        : []),
    ],
  };
}

/**
 * A plant's energy by month of a chosen year. The year defaults to the current one in the plant's time
 * zone and the title names the chosen year (docs/spec-differences.md: a fixed year breaks on 1 January).
 */
export function MonthlyEnergyWidget({ widget, frame, dark, bodyHeightPx }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const plantId = widget.settings.plant_id;
  const plant = useCatalogPlantMap().get(plantId ?? 0);
  const timeZone = plant?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [openedAt] = useState(() => Date.now());
  const currentYear = yearIn(timeZone, openedAt);
  const [chosen, setChosen] = useState<number | null>(null);
  const year = chosen ?? currentYear;
  const kpis = usePlantKpis(plantId ?? 0, 'year', `${year}-01-01`);
  const { energyOf } = usePlantChartLabels();
  const title = withPlant(t('dashboard.monthlyEnergy.title', { year }), plant);
  const option = useMemo(
    () =>
      kpis.data
        ? monthlyOption(
            kpis.data,
            // The KPIs' energy, named by its source (meter or inverters) as on the plant page.
            { energy: energyOf(kpis.data.energy_source), budget: t('dashboard.monthlyEnergy.budget') },
            i18n.language,
          )
        : null,
    // energyOf is derived from the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kpis.data, t, i18n.language],
  );
  const yearSelect = (
    <Select
      size="small"
      value={year}
      onChange={setChosen}
      aria-label={t('dashboard.monthlyEnergy.year')}
      data-testid="widget-year"
      popupMatchSelectWidth={false}
      options={Array.from({ length: YEARS_OFFERED }, (_, i) => ({
        value: currentYear - i,
        label: currentYear - i,
      }))}
    />
  );
  return (
    <WidgetFrame frame={frame} title={title} controls={plantId === null ? undefined : yearSelect}>
      {plantId === null ? (
        <WidgetNeedsSetting text={t('dashboard.settings.choosePlant')} frame={frame} />
      ) : (
        <WidgetState
          isLoading={kpis.isLoading}
          isError={kpis.isError}
          isEmpty={!kpis.data?.rows.some((r) => r.energy_kwh !== null)}
          onRetry={() => void kpis.refetch()}
        >
          {option && (
            <Suspense fallback={null}>
              <OptionChart
                option={option}
                dark={dark}
                testId="widget-energy-chart"
                points={kpis.data?.rows.length ?? 0}
                label={title}
                height={bodyHeightPx}
              />
            </Suspense>
          )}
        </WidgetState>
      )}
    </WidgetFrame>
  );
}
