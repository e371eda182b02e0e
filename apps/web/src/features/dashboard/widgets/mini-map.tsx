import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PlantMap, useMapSettings, type PlacedPlant } from '../../map';
import { usePlantsOverview } from '../../plants';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { ofPlants } from './filter-plants';
import type { WidgetProps } from './types';

/** The tile counts are the map page's concern (its offline notice); the mini map draws outlines anyway. */
const ignoreTiles = () => undefined;

/** The chosen plants on the map page's map, coloured by status and kept live with the overview. */
export function MiniMapWidget({ widget, frame, dark, bodyHeightPx }: WidgetProps) {
  const { t } = useTranslation();
  const overview = usePlantsOverview();
  const settings = useMapSettings();
  const placed = useMemo(
    () =>
      ofPlants(overview.data ?? [], widget.settings.plant_ids).filter(
        (p): p is PlacedPlant => p.latitude !== null && p.longitude !== null,
      ),
    [overview.data, widget.settings.plant_ids],
  );
  return (
    <WidgetFrame frame={frame} title={t('dashboard.widget.mini_map')}>
      <WidgetState
        isLoading={overview.isLoading || settings.isLoading}
        isError={overview.isError || settings.isError}
        isEmpty={placed.length === 0}
        emptyText={t('dashboard.map.noPlaced')}
        onRetry={() => {
          void overview.refetch();
          void settings.refetch();
        }}
      >
        {settings.data && (
          <div className="dashboard-mini-map" style={{ height: bodyHeightPx }} data-testid="mini-map">
            <PlantMap
              plants={placed}
              settings={settings.data}
              dark={dark}
              onTiles={ignoreTiles}
              fitRequest={0}
            />
          </div>
        )}
      </WidgetState>
    </WidgetFrame>
  );
}
