import Card from 'antd/es/card';
import { useTranslation } from 'react-i18next';
import type { KpiPerformance } from '@solar/shared';
import { formatNumber } from '../../../lib/format';

/** One tile of the KPI area: the figure, or "–" and why there is none. */
function PerformanceTile({
  testId,
  label,
  value,
  note,
  missing,
}: {
  testId: string;
  label: string;
  value: string;
  note: string;
  missing: boolean;
}) {
  return (
    <Card size="small" className="kpi-tile" data-testid={testId} data-missing={missing || undefined}>
      <div className="kpi-tile-label">{label}</div>
      <div className="kpi-tile-value">{value}</div>
      <div className="kpi-tile-note">{note}</div>
    </Card>
  );
}

/**
 * The KPI answer's degradation and the period's soiling loss (the performance module's figures,
 * docs/performance.md), each with its interval and the data it rests on, or "–" with the reason and the
 * span found when there is too little data.
 */
export function KpiPerformanceTiles({ performance }: { performance: KpiPerformance }) {
  const { t, i18n } = useTranslation();
  const num = (v: number, digits = 1) => formatNumber(v, i18n.language, digits);
  const level = (l: number) => num(l * 100, 1);
  const d = performance.degradation;
  const s = performance.soiling;
  const data = performance.soiling_data;
  const soilingMissing =
    s.status === 'insufficient_data' && data.days_needed !== null
      ? t('performance.soiling.notEnoughDetail', {
          usable: data.usable_days,
          from: data.from ?? '–',
          to: data.to ?? '–',
          needed: data.days_needed,
        })
      : s.status === 'ok'
        ? ''
        : t(`plantView.loss.soilingReason.${s.status}`);
  return (
    <>
      {d.status === 'ok' ? (
        <PerformanceTile
          testId="kpi-degradation"
          label={t('plantView.kpi.degradation')}
          value={t('performance.degradation.rate', { rate: num(d.rate_pct_per_year, 2) })}
          note={`${t('performance.degradation.ci', {
            level: level(d.confidence_level),
            low: num(d.ci_low_pct_per_year, 2),
            high: num(d.ci_high_pct_per_year, 2),
          })}; ${t('performance.degradation.basis', { pairs: d.pairs, from: d.from, to: d.to })}`}
          missing={false}
        />
      ) : (
        <PerformanceTile
          testId="kpi-degradation"
          label={t('plantView.kpi.degradation')}
          value="–"
          note={`${t('performance.degradation.notEnough', { found: d.months_found, needed: d.months_needed })}${
            d.from && d.to ? ` ${t('performance.degradation.span', { from: d.from, to: d.to })}` : ''
          }`}
          missing
        />
      )}
      {s.status === 'ok' ? (
        <PerformanceTile
          testId="kpi-soiling"
          label={t('plantView.kpi.soilingLoss')}
          value={`${num(s.loss_kwh)} kWh`}
          note={t('plantView.kpi.soilingNote', {
            low: num(s.loss_kwh_low),
            high: num(s.loss_kwh_high),
            level: level(s.confidence_level),
            days: s.days_estimated,
            usable: s.usable_days,
          })}
          missing={false}
        />
      ) : (
        <PerformanceTile
          testId="kpi-soiling"
          label={t('plantView.kpi.soilingLoss')}
          value="–"
          note={soilingMissing}
          missing
        />
      )}
    </>
  );
}
