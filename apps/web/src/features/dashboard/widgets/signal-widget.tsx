import { Suspense, useMemo } from 'react';
import Progress from 'antd/es/progress';
import { useTranslation } from 'react-i18next';
import { OptionChart } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { PlantTime } from '../../../lib/plant-time-view';
import { usePlantCatalog } from '../../telemetry';
import { useSignalSeries } from '../api/get-signal-series';
import { WidgetFrame, WidgetNeedsSetting, WidgetState } from '../components/widget-frame';
import { gaugeOf } from '../model/figures';
import { trendOption } from './trend-option';
import { useCurrentValues } from './use-current-values';
import { useCatalogPlantMap } from './use-plant-names';
import type { WidgetProps } from './types';
import { signalName } from '../../../lib/signal-name';

/** Room under the gauge for its range line, px. */
const RANGE_PX = 28;

/**
 * One signal, live: as a gauge of where its current value sits in the period's range, or as a trend of
 * the period with the current value in the title bar.
 */
export function SignalWidget({ widget, frame, dark, bodyHeightPx }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const { plant_id: plantId, signal_id: signalId, period, display } = widget.settings;
  const catalog = usePlantCatalog(plantId);
  // The signal's times are on its plant's clock (lib/plant-time.ts).
  const timeZone = useCatalogPlantMap().get(plantId ?? 0)?.time_zone;
  const device = (catalog.data ?? []).find((d) => d.signals.some((x) => x.id === signalId));
  const found = device ? { device, signal: device.signals.find((x) => x.id === signalId)! } : null;
  const foundId = found?.signal.id ?? null;
  const title = found
    ? `${signalName({ key: found.signal.key, name: found.signal.name })} · ${found.device.name}`
    : t('dashboard.widget.signal');
  const ids = useMemo(() => (foundId === null ? [] : [foundId]), [foundId]);
  const current = useCurrentValues(plantId ?? 0, ids);
  const series = useSignalSeries(ids, period);
  const value = signalId === null ? undefined : current.values.get(signalId);
  const points = series.data?.series[0]?.points ?? [];
  const unit = found?.signal.unit ?? '';
  const number = (v: number | null) =>
    v === null ? '–' : `${formatNumber(v, i18n.language, 1)} ${unit}`.trim();
  const option = useMemo(
    () =>
      series.data && display === 'trend' && timeZone
        ? trendOption(series.data.series, i18n.language, timeZone)
        : null,
    [series.data, display, i18n.language, timeZone],
  );
  const gauge = gaugeOf(value?.value ?? null, points);
  const size = Math.max(80, Math.min(bodyHeightPx - RANGE_PX, 220));

  return (
    <WidgetFrame
      frame={frame}
      title={title}
      controls={
        display === 'trend' && value ? (
          <span className="dashboard-current" data-testid="signal-value">
            {number(value.value)}
          </span>
        ) : undefined
      }
    >
      {plantId === null || signalId === null ? (
        <WidgetNeedsSetting text={t('dashboard.settings.chooseSignal')} frame={frame} />
      ) : (
        <WidgetState
          isLoading={catalog.isLoading || current.isLoading || series.isLoading}
          isError={catalog.isError || current.isError || series.isError}
          isEmpty={!found || (display === 'gauge' ? !value : points.length === 0)}
          emptyText={found ? undefined : t('dashboard.signal.gone')}
          onRetry={() => {
            void catalog.refetch();
            void current.refetch();
            void series.refetch();
          }}
        >
          {display === 'gauge' ? (
            <div className="dashboard-gauge" data-testid="signal-gauge" data-value={value?.value ?? ''}>
              <Progress
                type="dashboard"
                percent={gauge.percent}
                size={size}
                format={() => <span data-testid="signal-value">{number(value?.value ?? null)}</span>}
              />
              <div className="dashboard-muted">
                {t('dashboard.signal.range', {
                  min: number(gauge.min),
                  max: number(gauge.max),
                  period: t(`dashboard.period.${period}`),
                })}
                {value && timeZone && (
                  <>
                    {' · '}
                    <PlantTime at={value.ts} zone={timeZone} style="time" testId="signal-at" />
                  </>
                )}
              </div>
            </div>
          ) : (
            option && (
              <Suspense fallback={null}>
                <OptionChart
                  option={option}
                  dark={dark}
                  testId="widget-signal-chart"
                  points={points.length}
                  label={title}
                  height={bodyHeightPx}
                />
              </Suspense>
            )
          )}
        </WidgetState>
      )}
    </WidgetFrame>
  );
}
