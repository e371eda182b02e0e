import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { AlarmCounts, usePlantsOverview } from '../../plants';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { fleetFigures, scaled } from '../model/figures';
import { ofPlants } from './filter-plants';
import type { WidgetProps } from './types';

const DASH = '–';

/** Fleet KPI tiles: live power against capacity, today's energy, yesterday's PR and active alarms. */
export function FleetKpisWidget({ widget, frame }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const overview = usePlantsOverview();
  const plantIds = widget.settings.plant_ids;
  const figures = useMemo(
    () => fleetFigures(ofPlants(overview.data ?? [], plantIds)),
    [overview.data, plantIds],
  );
  const number = (v: number | null, digits = 1) =>
    v === null ? DASH : formatNumber(v, i18n.language, digits);
  const power = figures.powerKw === null ? null : scaled(figures.powerKw, 'kW');
  const energy = figures.energyTodayKwh === null ? null : scaled(figures.energyTodayKwh, 'kWh');
  const share =
    figures.powerKw !== null && figures.capacityKw ? (figures.powerKw / figures.capacityKw) * 100 : null;

  return (
    <WidgetFrame frame={frame} title={t('dashboard.widget.fleet_kpis')}>
      <WidgetState
        isLoading={overview.isLoading}
        isError={overview.isError}
        isEmpty={figures.plants === 0}
        emptyText={t('plantView.list.empty')}
        onRetry={() => void overview.refetch()}
      >
        <dl className="dashboard-tiles" data-testid="fleet-kpis" data-plants={figures.plants}>
          <div className="dashboard-tile">
            <dt>{t('dashboard.fleet.power')}</dt>
            <dd data-testid="fleet-power" data-kw={figures.powerKw ?? ''}>
              {power ? `${number(power.value)} ${power.unit}` : DASH}
              {share !== null && (
                <small>{t('dashboard.fleet.ofCapacity', { percent: number(share, 0) })}</small>
              )}
            </dd>
          </div>
          <div className="dashboard-tile">
            <dt>{t('plantView.list.energyToday')}</dt>
            <dd data-testid="fleet-energy">{energy ? `${number(energy.value)} ${energy.unit}` : DASH}</dd>
          </div>
          <div className="dashboard-tile">
            <dt>{t('plantView.list.prYesterday')}</dt>
            <dd data-testid="fleet-pr">
              {figures.prYesterday === null ? DASH : `${number(figures.prYesterday * 100)} %`}
            </dd>
          </div>
          <div className="dashboard-tile">
            <dt>{t('plantView.list.alarms')}</dt>
            <dd data-testid="fleet-alarms" data-total={figures.alarms.total}>
              <AlarmCounts counts={figures.alarms} />
            </dd>
          </div>
        </dl>
      </WidgetState>
    </WidgetFrame>
  );
}
