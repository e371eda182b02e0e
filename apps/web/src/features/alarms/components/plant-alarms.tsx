import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import Space from 'antd/es/space';
import { usePlantAlarms } from '../api/get-plant-alarms';
import { useAlarmEvents } from '../api/alarm-events';
import { PriorityTag, StateTag, useAlarmText } from './alarm-parts';
import { useQueryClient } from '@tanstack/react-query';
import { alarmKeys } from '../api/query-keys';
import { PlantTime } from '../../../lib/plant-time-view';
import { nestUnderCauses, type AlarmRow } from '../alarm-groups';
import { AlarmGroupTag } from './alarm-group-tag';

/**
 * The alarms of one plant, newest first, refreshed when an alarm of that plant is pushed; each consequence
 * under its cause, as on /alarms (a tree row opened by its cause's expander).
 */
export function PlantAlarms({ plantId }: { plantId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = usePlantAlarms(plantId);
  const text = useAlarmText();
  const rows = useMemo(() => nestUnderCauses(query.data ?? []), [query.data]);
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
    <Table<AlarmRow>
      data-testid="plant-alarms"
      size="small"
      rowKey="id"
      loading={query.isLoading}
      dataSource={rows}
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
          render: (_, a) => (
            <Space size={4} wrap>
              <StateTag alarm={a} />
              <AlarmGroupTag alarm={a} />
            </Space>
          ),
        },
      ]}
    />
  );
}
