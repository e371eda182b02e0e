import { useMemo } from 'react';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PlantOverviewItem } from '@solar/shared';
import {
  AlarmCounts,
  EnergyWithSource,
  ExcludedNote,
  PowerBar,
  STATUS_RANK,
  StatusTag,
  usePlantsOverview,
} from '../../plants';
import { formatNumber } from '../../../lib/format';
import { WidgetFrame, WidgetState } from '../components/widget-frame';
import { ofPlants } from './filter-plants';
import type { WidgetProps } from './types';

/** Every chosen plant's status, live power, today's energy and alarms; the plants needing attention first. */
export function PlantStatusWidget({ widget, frame, bodyHeightPx }: WidgetProps) {
  const { t, i18n } = useTranslation();
  const overview = usePlantsOverview();
  const locale = i18n.language.replace('_', '-');
  const rows = useMemo(
    () =>
      ofPlants(overview.data ?? [], widget.settings.plant_ids).sort(
        (a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || a.name.localeCompare(b.name, locale),
      ),
    [overview.data, widget.settings.plant_ids, locale],
  );
  // The plants whose PR yesterday left doubted irradiance out, said once above the table (docs/kpi.md).
  const excluded = rows.filter((p) => p.excluded_irradiance_hours_yesterday.total > 0);
  const excludedHours = excluded.reduce((a, p) => a + p.excluded_irradiance_hours_yesterday.total, 0);
  const hours = (value: number) => formatNumber(value, i18n.language, 1);
  return (
    <WidgetFrame frame={frame} title={t('dashboard.widget.plant_status')}>
      <WidgetState
        isLoading={overview.isLoading}
        isError={overview.isError}
        isEmpty={rows.length === 0}
        emptyText={t('plantView.list.empty')}
        onRetry={() => void overview.refetch()}
      >
        {excluded.length > 0 && (
          <ExcludedNote
            testId="dashboard-excluded-irradiance"
            attribute="data-excluded-hours"
            amount={excludedHours}
            message={t('dashboard.excludedIrradianceYesterday', {
              plants: excluded
                .map((p) => `${p.name} ${hours(p.excluded_irradiance_hours_yesterday.total)} h`)
                .join('; '),
            })}
          />
        )}
        <Table<PlantOverviewItem>
          data-testid="plant-status-table"
          rowKey="plant_id"
          size="small"
          dataSource={rows}
          pagination={false}
          // The header stays while the rows scroll inside the widget.
          scroll={{ x: 'max-content', y: Math.max(80, bodyHeightPx - 48) }}
          columns={[
            {
              key: 'name',
              title: t('plantView.list.name'),
              render: (_, p) => <Link to={`/santral-detay/${p.plant_id}`}>{p.name}</Link>,
            },
            {
              key: 'status',
              title: t('plantView.list.status'),
              render: (_, p) => <StatusTag status={p.status} />,
            },
            { key: 'power', title: t('plantView.list.power'), render: (_, p) => <PowerBar plant={p} /> },
            {
              key: 'energy',
              title: t('plantView.list.energyToday'),
              align: 'right',
              render: (_, p) => <EnergyWithSource value={p.energy_today_kwh} source={p.energy_source} />,
            },
            {
              key: 'alarms',
              title: t('plantView.list.alarms'),
              render: (_, p) => <AlarmCounts counts={p.active_alarms} />,
            },
          ]}
        />
      </WidgetState>
    </WidgetFrame>
  );
}
