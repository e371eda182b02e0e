import { Suspense, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OptionChart } from '../../../components';
import { plantPowerQueryOptions, powerOption, powerSeriesNames, usePlantChartLabels } from '../../plants';
import { WidgetFrame, WidgetNeedsSetting, WidgetState } from '../components/widget-frame';
import { useCatalogPlantMap, withPlant } from './use-plant-names';
import type { WidgetProps } from './types';

/** Today's curve gains a 5-minute point every 5 minutes: fetched again each minute, so it is never far behind. */
export const POWER_REFRESH_MS = 60_000;

/** A plant's power today against its expected power (and the plane-of-array irradiance behind it). */
export function PlantPowerWidget({ widget, frame, dark, bodyHeightPx }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const plantId = widget.settings.plant_id;
  const plants = useCatalogPlantMap();
  const power = useQuery({
    ...plantPowerQueryOptions(plantId ?? 0, null),
    enabled: plantId !== null,
    refetchInterval: POWER_REFRESH_MS,
  });
  const labels = usePlantChartLabels().power;
  const option = useMemo(
    () => (power.data ? powerOption(power.data, labels, i18n.language) : null),
    // labels are derived from the language
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [power.data, i18n.language],
  );
  const title = withPlant(
    t('dashboard.widget.plant_power'),
    plantId === null ? undefined : plants.get(plantId),
  );
  return (
    <WidgetFrame frame={frame} title={title}>
      {plantId === null ? (
        <WidgetNeedsSetting text={t('dashboard.settings.choosePlant')} frame={frame} />
      ) : (
        <WidgetState
          isLoading={power.isLoading}
          isError={power.isError}
          isEmpty={
            !power.data?.points.some((p) => p.actual_power_kw !== null || p.expected_power_kw !== null)
          }
          onRetry={() => void power.refetch()}
        >
          {option && (
            <Suspense fallback={null}>
              <OptionChart
                option={option}
                dark={dark}
                testId="widget-power-chart"
                points={power.data?.points.length ?? 0}
                label={power.data ? `${title}: ${powerSeriesNames(power.data, labels).join(', ')}` : title}
                height={bodyHeightPx}
              />
            </Suspense>
          )}
        </WidgetState>
      )}
    </WidgetFrame>
  );
}
