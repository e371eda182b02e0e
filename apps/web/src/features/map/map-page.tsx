import { useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { LoadingSpin } from '../../components';
import { Link } from 'react-router';
import { OPERATING_STATUSES } from '@solar/shared';
import { usePreferences } from '../../lib/preferences-store';
import { StatusTag, useLiveOverview, usePlantsOverview } from '../plants';
import { useMapSettings } from './api/get-map-settings';
import { PlantMap, type PlacedPlant, type TileState } from './components/plant-map';
import { STATUS_GLYPH } from './marker-icons';
import './map.css';

/** pages.map: every plant in scope on a clustered map, coloured by status, kept live over the stream. */
export default function MapPage() {
  const { t } = useTranslation();
  const dark = usePreferences((s) => s.theme) === 'dark';
  const overview = usePlantsOverview();
  const settings = useMapSettings();
  const [tiles, setTiles] = useState<TileState>({ loaded: 0, failed: 0 });
  const [fitRequest, setFitRequest] = useState(0);

  const items = useMemo(() => overview.data ?? [], [overview.data]);
  useLiveOverview(useMemo(() => items.map((p) => p.plant_id), [items]));
  const placed = useMemo(
    () => items.filter((p): p is PlacedPlant => p.latitude !== null && p.longitude !== null),
    [items],
  );
  const offline = tiles.failed > 0 && tiles.loaded === 0;
  const unplaced = items.filter((p) => p.latitude === null || p.longitude === null);

  if (overview.isError || settings.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('plantView.list.error')}
        action={
          <Button
            onClick={() => {
              void overview.refetch();
              void settings.refetch();
            }}
          >
            {t('plantView.common.retry')}
          </Button>
        }
      />
    );

  return (
    <div className="map-page" data-testid="map-page">
      <div className="map-toolbar">
        <ul className="map-legend" aria-label={t('mapView.legend')}>
          {OPERATING_STATUSES.map((s) => (
            <li key={s}>
              <span className={`plant-marker plant-marker--${s} map-legend-badge`} aria-hidden="true">
                {STATUS_GLYPH[s]}
              </span>
              {t(`plantView.status.${s}`)}
            </li>
          ))}
        </ul>
        <span className="map-count" data-testid="map-count">
          {t('plantView.list.count', { count: items.length })}
        </span>
        <Button size="small" onClick={() => setFitRequest((n) => n + 1)} data-testid="map-fit">
          {t('mapView.showAll')}
        </Button>
      </div>
      {offline && (
        <Alert
          type="info"
          showIcon
          className="map-offline"
          data-testid="map-offline"
          title={t('mapView.tilesUnavailable')}
        />
      )}
      {settings.data && !overview.isLoading ? (
        <PlantMap
          plants={placed}
          settings={settings.data}
          dark={dark}
          onTiles={setTiles}
          fitRequest={fitRequest}
          offline={offline}
        />
      ) : (
        <div className="plant-map plant-map-loading">
          <LoadingSpin label={t('plantView.common.loading')} />
        </div>
      )}
      {unplaced.length > 0 && (
        <section className="map-unplaced" data-testid="map-unplaced">
          <h2>{t('mapView.noLocation')}</h2>
          <ul>
            {unplaced.map((p) => (
              <li key={p.plant_id}>
                <Link to={`/santral-detay/${p.plant_id}`}>{p.name}</Link> <StatusTag status={p.status} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
