import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PlantOverviewItem } from '@solar/shared';
import { formatPlantTime } from '../../../lib/plant-time';
import { AlarmCounts, EnergyWithSource, PowerBar, PrValue, StatusTag } from '../../plants';

/** A plant's figures in its map popup (rendered through a portal, so it has the app's theme and router). */
export function PlantPopup({ plant }: { plant: PlantOverviewItem }) {
  const { t, i18n } = useTranslation();
  // On the plant's clock, named when the reader's differs (lib/plant-time.ts).
  const lastData = formatPlantTime(plant.last_data_at, plant.time_zone, i18n.language) || '–';
  return (
    <div className="plant-popup" data-testid="plant-popup" data-plant-id={plant.plant_id}>
      <div className="plant-popup-head">
        <strong className="plant-popup-name">{plant.name}</strong>
        <StatusTag status={plant.status} />
      </div>
      <div className="plant-popup-company">{plant.company_name}</div>
      <PowerBar plant={plant} />
      <dl className="plant-popup-figures">
        <dt>{t('plantView.list.energyToday')}</dt>
        <dd>
          <EnergyWithSource value={plant.energy_today_kwh} source={plant.energy_source} />
        </dd>
        <dt>{t('mapView.prToday')}</dt>
        <dd>
          <PrValue value={plant.pr_today} />
        </dd>
        <dt>{t('plantView.list.prYesterday')}</dt>
        <dd>
          <PrValue value={plant.pr_yesterday} />
        </dd>
        <dt>{t('plantView.list.alarms')}</dt>
        <dd>
          <AlarmCounts counts={plant.active_alarms} />
        </dd>
        <dt>{t('mapView.lastData')}</dt>
        <dd>{lastData}</dd>
      </dl>
      <Link to={`/santral-detay/${plant.plant_id}`} data-testid="plant-popup-link">
        {t('mapView.openPlant')}
      </Link>
    </div>
  );
}
