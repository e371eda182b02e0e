import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { DegradationResult, PlantPerformanceAnswer } from '@solar/shared';
import { LoadingSpin } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { useCan } from '../../../lib/permissions';
import { usePlantPerformance } from '../api/get-performance';
import { degradationView, sparklinePoints } from '../performance-view';
import { ModelForm } from './model-form';
import './performance.css';

const SPARK_WIDTH = 240;
const SPARK_HEIGHT = 40;

/** One degradation answer: the rate with its interval and basis, or how much data is missing. */
function Degradation({ result, testId }: { result: DegradationResult; testId: string }) {
  const { t, i18n } = useTranslation();
  const num = (v: number, digits = 2) => formatNumber(v, i18n.language, digits);
  if (result.status === 'insufficient_data')
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        {t('performance.degradation.notEnough', { found: result.months_found, needed: result.months_needed })}
      </Typography.Text>
    );
  return (
    <Space direction="vertical" size={0} data-testid={testId}>
      <Typography.Text strong>
        {t('performance.degradation.rate', { rate: num(result.rate_pct_per_year) })}
      </Typography.Text>
      <Typography.Text type="secondary">
        {t('performance.degradation.ci', {
          level: num(result.confidence_level * 100, 1),
          low: num(result.ci_low_pct_per_year),
          high: num(result.ci_high_pct_per_year),
        })}
      </Typography.Text>
      <Typography.Text type="secondary">
        {t('performance.degradation.basis', { pairs: result.pairs, from: result.from, to: result.to })}
      </Typography.Text>
    </Space>
  );
}

/**
 * Degradation of the plant and its inverters. Too little history is said once, for the plant, with the
 * months it has and needs: the inverters share the plant's history, so a line each would repeat it (ten
 * lines on a phone). Inverters are listed only with a rate; those without are counted.
 */
function DegradationSummary({ degradation }: { degradation: PlantPerformanceAnswer['degradation'] }) {
  const { t } = useTranslation();
  const view = degradationView(degradation);
  return (
    <>
      {view.plant ? (
        <Degradation result={view.plant} testId="degradation-plant" />
      ) : (
        view.notEnough && (
          <Typography.Text type="secondary" data-testid="degradation-plant">
            {t('performance.degradation.notEnough', {
              found: view.notEnough.found,
              needed: view.notEnough.needed,
            })}
            {view.notEnough.from && view.notEnough.to && (
              <> {t('performance.degradation.span', { from: view.notEnough.from, to: view.notEnough.to })}</>
            )}
          </Typography.Text>
        )
      )}
      {view.inverters.length > 0 && (
        <>
          <Typography.Text strong>{t('performance.degradation.inverters')}</Typography.Text>
          {view.inverters.map((inv) => (
            <div key={inv.device_id}>
              <Typography.Text>{inv.name}</Typography.Text>{' '}
              <Degradation result={inv.result} testId={`degradation-inverter-${inv.device_id}`} />
            </div>
          ))}
        </>
      )}
      {view.invertersWithout > 0 && view.plant && (
        <Typography.Text type="secondary" data-testid="degradation-inverters-without">
          {t('performance.degradation.invertersNotEnough', { count: view.invertersWithout })}
        </Typography.Text>
      )}
    </>
  );
}

/** Soiling: mean ratio, loss with its interval, the ratio's sparkline over the last year, the payback date. */
function Soiling({ answer }: { answer: PlantPerformanceAnswer }) {
  const { t, i18n } = useTranslation();
  const num = (v: number, digits = 0) => formatNumber(v, i18n.language, digits);
  const s = answer.soiling;
  if (s.status === 'insufficient_data')
    return (
      <Typography.Text type="secondary" data-testid="soiling-not-enough">
        {s.from && s.to
          ? t('performance.soiling.notEnoughDetail', {
              usable: num(s.usable_days),
              from: s.from,
              to: s.to,
              needed: num(s.days_needed),
            })
          : t('performance.soiling.notEnough')}
      </Typography.Text>
    );
  if (s.status === 'not_detected')
    return (
      <Space direction="vertical" size={4} data-testid="soiling-not-detected">
        <span>{t('performance.soiling.notDetected')}</span>
        <Typography.Text type="secondary" data-testid="soiling-basis">
          {t('performance.soiling.basis', {
            used: num(s.days_used),
            usable: num(s.usable_days),
            from: s.from,
            to: s.to,
            level: num(95),
          })}
        </Typography.Text>
      </Space>
    );
  const lastYear = s.ratio_series.slice(-365);
  const p = answer.payback;
  return (
    <Space direction="vertical" size={4} data-testid="soiling">
      <span>
        {t('performance.soiling.ratio')}: <strong>{num(s.mean_ratio * 100, 1)} %</strong> (
        {num(s.mean_ratio_low * 100, 1)} … {num(s.mean_ratio_high * 100, 1)} %)
      </span>
      <span>
        {t('performance.soiling.loss')}:{' '}
        <strong>
          {t('performance.soiling.lossValue', {
            value: num(s.loss_kwh),
            low: num(s.loss_kwh_low),
            high: num(s.loss_kwh_high),
          })}
        </strong>
      </span>
      <svg
        className="performance-sparkline"
        width={SPARK_WIDTH}
        height={SPARK_HEIGHT}
        viewBox={`-2 -2 ${SPARK_WIDTH + 4} ${SPARK_HEIGHT + 4}`}
        role="img"
        aria-label={t('performance.soiling.sparkline')}
        data-testid="soiling-sparkline"
      >
        <polyline
          points={sparklinePoints(lastYear, SPARK_WIDTH, SPARK_HEIGHT)}
          fill="none"
          strokeWidth={1.5}
        />
      </svg>
      <Typography.Text type="secondary" data-testid="soiling-basis">
        {t('performance.soiling.basis', {
          used: num(s.days_used),
          usable: num(s.usable_days),
          from: s.from,
          to: s.to,
          level: num(s.confidence_level * 100),
        })}
      </Typography.Text>
      <Typography.Text type="secondary">
        {t('performance.soiling.recoveries', { count: s.recoveries.length })}
      </Typography.Text>
      <span data-testid="payback">
        {t('performance.payback.title')}:{' '}
        {p === null ? (
          <Typography.Text type="secondary">{t('performance.payback.noCost')}</Typography.Text>
        ) : p.date === null ? (
          <Typography.Text type="secondary">{t('performance.payback.never')}</Typography.Text>
        ) : (
          <strong>{p.projected ? t('performance.payback.projected', { date: p.date }) : p.date}</strong>
        )}
      </span>
    </Space>
  );
}

/**
 * The plant page's performance card: degradation per plant and inverter with its interval, soiling, the
 * cleaning payback, which model the expected energy used, and the model parameters behind a button.
 */
export function PerformanceCard({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const query = usePlantPerformance(plantId);
  const canModel = useCan('plant_management');
  const [editing, setEditing] = useState(false);
  const a = query.data;
  const excludedDays = a
    ? a.excluded_days.no_energy + a.excluded_days.incomplete_data + a.excluded_days.impossible_energy
    : 0;
  return (
    <Card
      title={t('performance.title')}
      className="plant-card-wide"
      data-testid="performance-card"
      extra={
        canModel.view && (
          <Button size="small" onClick={() => setEditing(true)} data-testid="performance-edit-model">
            {t('performance.editModel')}
          </Button>
        )
      }
    >
      {query.isPending ? (
        <LoadingSpin />
      ) : query.isError || !a ? (
        <Alert type="error" showIcon message={t('performance.error')} />
      ) : (
        <div className="performance-grid">
          <Space direction="vertical" size={4}>
            <Tag
              color={a.model_source === 'default' ? 'default' : 'blue'}
              data-testid="performance-model-source"
            >
              {t(`performance.modelSource.${a.model_source}`)}
            </Tag>
            <Typography.Text strong>{t('performance.degradation.title')}</Typography.Text>
            <DegradationSummary degradation={a.degradation} />
            {excludedDays > 0 && (
              <Typography.Text type="secondary">
                {t('performance.excluded', { count: excludedDays })}
              </Typography.Text>
            )}
          </Space>
          <Space direction="vertical" size={4}>
            <Typography.Text strong>{t('performance.soiling.title')}</Typography.Text>
            <Soiling answer={a} />
          </Space>
        </div>
      )}
      {editing && <ModelForm plantId={plantId} canEdit={canModel.update} onClose={() => setEditing(false)} />}
    </Card>
  );
}
