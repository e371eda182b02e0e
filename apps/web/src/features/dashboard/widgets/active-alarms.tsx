import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlantTime } from '../../../lib/plant-time-view';
import { PriorityTag, useAlarmEvents, useAlarmText } from '../../alarms';
import { useActiveAlarms } from '../api/get-active-alarms';
import { dashboardKeys } from '../api/query-keys';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { ofPlants } from './filter-plants';
import type { WidgetProps } from './types';

/** The newest active alarms of the chosen plants, kept current by the live stream's alarm events. */
export function ActiveAlarmsWidget({ widget, frame }: WidgetProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const plantIds = widget.settings.plant_ids;
  // One chosen plant is filtered by the server; several by the client from the newest of the scope.
  const alarms = useActiveAlarms(plantIds.length === 1 ? plantIds[0]! : null);
  const text = useAlarmText();
  useAlarmEvents(() => void client.invalidateQueries({ queryKey: dashboardKeys.allActiveAlarms() }));
  const shown = useMemo(() => ofPlants(alarms.data?.items ?? [], plantIds), [alarms.data, plantIds]);

  return (
    <WidgetFrame frame={frame} title={t('dashboard.widget.active_alarms')}>
      <WidgetState
        isLoading={alarms.isLoading}
        isError={alarms.isError}
        isEmpty={shown.length === 0}
        emptyText={t('dashboard.alarms.none')}
        onRetry={() => void alarms.refetch()}
      >
        <ul className="dashboard-list" data-testid="active-alarms-list" data-count={shown.length}>
          {shown.map((a) => (
            <li key={a.id}>
              <div className="dashboard-list-head">
                <PriorityTag priority={a.priority_id} />
                <Link to="/alarms">{a.plant_name}</Link>
                {a.device_name && <span className="dashboard-muted"> · {a.device_name}</span>}
              </div>
              <div>{text(a)}</div>
              <div className="dashboard-muted">
                <PlantTime
                  at={a.started_at}
                  zone={a.plant_time_zone}
                  testId={`active-alarm-started-${a.id}`}
                />
              </div>
            </li>
          ))}
        </ul>
        {plantIds.length === 0 && (alarms.data?.total ?? 0) > (alarms.data?.items.length ?? 0) && (
          <div className="dashboard-muted">
            {t('dashboard.alarms.more', {
              count: (alarms.data?.total ?? 0) - (alarms.data?.items.length ?? 0),
            })}
          </div>
        )}
      </WidgetState>
    </WidgetFrame>
  );
}
