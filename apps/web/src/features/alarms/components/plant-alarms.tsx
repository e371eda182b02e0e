import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { AlarmRecord } from '@solar/shared';
import { usePlantAlarms } from '../api/get-plant-alarms';
import { useAlarmEvents } from '../api/alarm-events';
import { PriorityTag, StateTag, useAlarmText } from './alarm-parts';
import { useQueryClient } from '@tanstack/react-query';
import { alarmKeys } from '../api/query-keys';
import { PlantTime } from '../../../lib/plant-time-view';

/** The alarms of one plant, newest first, refreshed when an alarm of that plant is pushed. */
export function PlantAlarms({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = usePlantAlarms(plantId);
  const text = useAlarmText();
  useAlarmEvents((event) => {
    if (event.alarm.plant_id === plantId)
      void client.invalidateQueries({ queryKey: alarmKeys.plant(plantId) });
  });
  if (query.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="plant-alarms-error"
        title={t('plantView.common.error')}
        action={<Button onClick={() => void query.refetch()}>{t('plantView.common.retry')}</Button>}
      />
    );
  return (
    <Table<AlarmRecord>
      data-testid="plant-alarms"
      size="small"
      rowKey="id"
      loading={query.isLoading}
      dataSource={query.data ?? []}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('plantView.alarms.empty') }}
      columns={[
        {
          key: 'started',
          title: t('plantView.alarms.started'),
          render: (_, a) => (
            <PlantTime at={a.started_at} zone={a.plant_time_zone} testId={`plant-alarm-started-${a.id}`} />
          ),
        },
        {
          key: 'priority',
          title: t('plantView.alarms.priority'),
          render: (_, a) => <PriorityTag priority={a.priority_id} />,
        },
        {
          key: 'message',
          title: t('plantView.alarms.message'),
          render: (_, a) => (a.device_name ? `${a.device_name}: ${text(a)}` : text(a)),
        },
        {
          key: 'state',
          title: t('plantView.alarms.state'),
          render: (_, a) => <StateTag alarm={a} />,
        },
      ]}
    />
  );
}
