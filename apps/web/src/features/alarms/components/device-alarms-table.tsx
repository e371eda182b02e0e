import Alert from 'antd/es/alert';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import Space from 'antd/es/space';
import { errorMessageOf } from '../../../lib/api-errors';
import { prefixedKey } from '../../../lib/i18n-keys';
import { useDeviceAlarms } from '../api/get-device-alarms';
import { PriorityTag, STATUS_COLORS, useAlarmText } from './alarm-parts';
import { PlantTime } from '../../../lib/plant-time-view';
import { nestUnderCauses, type AlarmRow } from '../alarm-groups';
import { AlarmGroupTag } from './alarm-group-tag';

/**
 * A device's alarm history, newest first: start, end, priority, text and status; each consequence under its
 * cause when both are the device's, as on /alarms.
 */
export function DeviceAlarmsTable({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const text = useAlarmText();
  const query = useDeviceAlarms(deviceId);
  const rows = useMemo(() => nestUnderCauses(query.data?.items ?? []), [query.data]);
  if (query.error)
    return (
      <Alert type="error" showIcon title={errorMessageOf(query.error, t)} data-testid="device-alarms-error" />
    );
  return (
    <Table<AlarmRow>
      data-testid="device-alarms"
      size="small"
      rowKey="id"
      loading={query.isPending}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('devicePages.noAlarms') }}
      columns={[
        {
          key: 'started',
          title: t('devicePages.alarmStarted'),
          render: (_, a) => <PlantTime at={a.started_at} zone={a.plant_time_zone} />,
        },
        {
          key: 'cleared',
          title: t('devicePages.alarmCleared'),
          render: (_, a) => <PlantTime at={a.cleared_at} zone={a.plant_time_zone} />,
        },
        {
          key: 'priority',
          title: t('alarms.page.priority'),
          render: (_, a) => <PriorityTag priority={a.priority_id} />,
        },
        { key: 'message', title: t('alarms.page.message'), render: (_, a) => text(a) },
        {
          key: 'status',
          title: t('alarms.page.status'),
          render: (_, a) => (
            <Space size={4} wrap>
              <Tag color={STATUS_COLORS[a.status_id]}>{t(prefixedKey('alarms.status', a.status))}</Tag>
              <AlarmGroupTag alarm={a} />
            </Space>
          ),
        },
      ]}
    />
  );
}
