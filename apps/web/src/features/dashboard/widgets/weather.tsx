import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogSignal } from '@solar/shared';
import { OptionChart } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { usePlantCatalog } from '../../telemetry';
import { useSignalSeries } from '../api/get-signal-series';
import { WidgetFrame, WidgetNeedsSetting, WidgetState } from '../components/widget-frame';
import { trendOption } from './trend-option';
import { useCurrentValues } from './use-current-values';
import { useCatalogPlantMap, withPlant } from './use-plant-names';
import type { WidgetProps } from './types';
import { signalName } from '../../../lib/signal-name';

/** Units of what the weather widget shows: irradiance and temperatures. */
const IRRADIANCE_UNITS = new Set(['w/m²', 'w/m2']);
const TEMPERATURE_UNITS = new Set(['°c']);
/** Height of the row of current values above the chart, px. */
const TILES_PX = 64;

const isWeatherSignal = (s: CatalogSignal) => {
  const unit = (s.unit ?? '').trim().toLowerCase();
  return IRRADIANCE_UNITS.has(unit) || TEMPERATURE_UNITS.has(unit);
};

/** A plant's weather stations: irradiance and temperatures now (live) and over the chosen period. */
export function WeatherWidget({ widget, frame, dark, bodyHeightPx }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const { plant_id: plantId, period } = widget.settings;
  const plant = useCatalogPlantMap().get(plantId ?? 0);
  const catalog = usePlantCatalog(plantId);
  const signals = useMemo(
    () =>
      (catalog.data ?? [])
        .filter((d) => d.type === 'weather_station')
        .flatMap((d) => d.signals.filter(isWeatherSignal)),
    [catalog.data],
  );
  const ids = useMemo(() => signals.map((s) => s.id), [signals]);
  const current = useCurrentValues(plantId ?? 0, ids);
  const series = useSignalSeries(ids, period);
  const option = useMemo(
    () => (series.data && plant ? trendOption(series.data.series, i18n.language, plant.time_zone) : null),
    [series.data, i18n.language, plant],
  );
  const title = withPlant(t('dashboard.widget.weather'), plant);

  return (
    <WidgetFrame frame={frame} title={title}>
      {plantId === null ? (
        <WidgetNeedsSetting text={t('dashboard.settings.choosePlant')} frame={frame} />
      ) : (
        <WidgetState
          isLoading={catalog.isLoading || (ids.length > 0 && (series.isLoading || current.isLoading))}
          isError={catalog.isError || series.isError || current.isError}
          isEmpty={signals.length === 0}
          emptyText={t('dashboard.weather.noStation')}
          onRetry={() => {
            void catalog.refetch();
            void series.refetch();
            void current.refetch();
          }}
        >
          <dl className="dashboard-tiles dashboard-tiles--small" data-testid="weather-values">
            {signals.map((s) => {
              const v = current.values.get(s.id);
              return (
                <div className="dashboard-tile" key={s.id}>
                  <dt>{signalName(s)}</dt>
                  <dd data-signal-id={s.id}>
                    {v ? `${formatNumber(v.value, i18n.language, 1)} ${s.unit ?? ''}` : '–'}
                  </dd>
                </div>
              );
            })}
          </dl>
          {option && (
            <Suspense fallback={null}>
              <OptionChart
                option={option}
                dark={dark}
                testId="widget-weather-chart"
                points={series.data?.series.reduce((n, s) => n + s.points.length, 0) ?? 0}
                label={title}
                height={Math.max(80, bodyHeightPx - TILES_PX)}
              />
            </Suspense>
          )}
        </WidgetState>
      )}
    </WidgetFrame>
  );
}
