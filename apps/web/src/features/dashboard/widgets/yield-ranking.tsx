import { Suspense, useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BarChart } from '../../../components';
import { plantKpisQueryOptions, usePlantsOverview } from '../../plants';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { ranked } from '../model/figures';
import { ofPlants } from './filter-plants';
import type { WidgetProps } from './types';

/**
 * Most plants ranked over a month or a year: each needs its own KPI call, so a larger choice ranks the
 * first plants by name and says so (today's ranking comes from the overview, for any number of plants).
 */
export const RANKING_PLANT_LIMIT = 30;

/** The chosen plants by specific yield (kWh/kWp) of today, this month or this year, best first. */
export function YieldRankingWidget({ widget, frame, dark }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const { plant_ids: plantIds, period } = widget.settings;
  const locale = i18n.language.replace('_', '-');
  const overview = usePlantsOverview();
  const plants = useMemo(
    () => ofPlants(overview.data ?? [], plantIds).sort((a, b) => a.name.localeCompare(b.name, locale)),
    [overview.data, plantIds, locale],
  );
  const byKpis = period !== 'day';
  const asked = byKpis ? plants.slice(0, RANKING_PLANT_LIMIT) : [];
  const kpis = useQueries({
    queries: asked.map((p) => plantKpisQueryOptions(p.plant_id, period === 'year' ? 'year' : 'month', null)),
    combine: (results) => ({
      values: results.map((r) => r.data?.specific_yield_kwh_kwp ?? null),
      isLoading: results.some((r) => r.isLoading),
      isError: results.some((r) => r.isError),
      refetch: () => results.forEach((r) => void r.refetch()),
    }),
  });
  const bars = useMemo(() => {
    const items = byKpis
      ? asked.map((p, i) => ({ name: p.name, value: kpis.values[i] ?? null }))
      : plants.map((p) => ({ name: p.name, value: p.specific_yield_today_kwh_kwp }));
    return ranked(items, locale).map((it) => ({ label: it.name, value: it.value, highlighted: true }));
    // `asked` is a slice of `plants`, remade each render; `plants` stands for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [byKpis, plants, kpis.values, locale]);

  return (
    <WidgetFrame
      frame={frame}
      title={`${t('dashboard.widget.yield_ranking')} · ${t(`dashboard.period.${period}`)}`}
    >
      <WidgetState
        isLoading={overview.isLoading || kpis.isLoading}
        isError={overview.isError || kpis.isError}
        isEmpty={!bars.some((b) => b.value !== null)}
        onRetry={() => {
          void overview.refetch();
          kpis.refetch();
        }}
      >
        <Suspense fallback={null}>
          <BarChart
            bars={bars}
            dark={dark}
            language={i18n.language}
            unit="kWh/kWp"
            testId="widget-ranking-chart"
          />
        </Suspense>
        {byKpis && plants.length > RANKING_PLANT_LIMIT && (
          <div className="dashboard-muted">
            {t('dashboard.ranking.limited', { count: RANKING_PLANT_LIMIT })}
          </div>
        )}
      </WidgetState>
    </WidgetFrame>
  );
}
