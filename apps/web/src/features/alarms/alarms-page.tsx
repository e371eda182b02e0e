import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Popconfirm from 'antd/es/popconfirm';
import Segmented from 'antd/es/segmented';
import Flex from 'antd/es/flex';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import CheckOutlined from '@ant-design/icons/CheckOutlined';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ALARM_STATUS_IDS, alarmStatusName, type AlarmRecord, type AlarmStatusId } from '@solar/shared';
import { useCan } from '../../lib/permissions';
import { useLiveAlarmList } from './api/alarm-events';
import { useDecideAlarm } from './api/decide-alarm';
import { useAlarms } from './api/get-alarms';
import { AlarmDuration, PriorityTag, STATUS_COLORS, useAlarmText, useNow } from './components/alarm-parts';
import { PlantTime } from '../../lib/plant-time-view';

type StatusFilter = AlarmStatusId | 'all';

/** An alarm not yet decided (active, or cleared by itself) may still be approved or rejected. */
const undecided = (a: AlarmRecord) => a.status_id === 1 || a.status_id === 4;

/**
 * /alarms: the alarms in scope filtered by status (with counts), kept current by the live stream; users
 * who may update alarms approve them (converting them to faults) or reject them.
 */
export default function AlarmsPage() {
  const { t } = useTranslation();
  const can = useCan('alarm');
  const canSeeSignals = useCan('device_signals').view;
  const canSeeFaults = useCan('report').view;
  const [status, setStatus] = useState<StatusFilter>(1);
  const query = useAlarms();
  const live = useLiveAlarmList();
  const decide = useDecideAlarm();
  const text = useAlarmText();
  const alarms = useMemo(() => query.data ?? [], [query.data]);
  const anyActive = alarms.some((a) => a.status_id === 1);
  const now = useNow(1000, anyActive);

  const counts = useMemo(() => {
    const byStatus = new Map<number, number>();
    for (const a of alarms) byStatus.set(a.status_id, (byStatus.get(a.status_id) ?? 0) + 1);
    return byStatus;
  }, [alarms]);
  const rows = useMemo(
    () => (status === 'all' ? alarms : alarms.filter((a) => a.status_id === status)),
    [alarms, status],
  );

  const pending = (id: number) => decide.isPending && decide.variables?.id === id;

  const columns: ColumnsType<AlarmRecord> = [
    { key: 'plant', dataIndex: 'plant_name', title: t('alarms.page.plant') },
    {
      key: 'device',
      title: t('alarms.page.device'),
      render: (_, a) =>
        a.device_id === null ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : canSeeSignals ? (
          <Link
            to={`/signals/${a.device_id}`}
            title={t('alarms.page.openDevice')}
            data-testid={`alarm-device-${a.id}`}
          >
            {a.device_name}
          </Link>
        ) : (
          a.device_name
        ),
    },
    {
      key: 'priority',
      dataIndex: 'priority_id',
      title: t('alarms.page.priority'),
      render: (p: number) => <PriorityTag priority={p} />,
      sorter: (a, b) => a.priority_id - b.priority_id,
    },
    {
      key: 'message',
      title: t('alarms.page.message'),
      width: 300,
      ellipsis: { showTitle: true },
      render: (_, a) => <span data-testid={`alarm-message-${a.id}`}>{text(a)}</span>,
    },
    {
      key: 'started_at',
      dataIndex: 'started_at',
      title: t('alarms.page.startLocal'),
      // Room for the time and its two-word header, which an equal share of the fixed layout broke mid-word.
      width: 190,
      // Each row on its own plant's clock: the list mixes plants of several zones.
      render: (iso: string, a) => (
        <PlantTime
          at={iso}
          zone={a.plant_time_zone}
          style="dateTimeSeconds"
          testId={`alarm-started-${a.id}`}
        />
      ),
      sorter: (a, b) => Date.parse(a.started_at) - Date.parse(b.started_at),
    },
    {
      key: 'duration',
      title: t('alarms.page.duration'),
      render: (_, a) => <AlarmDuration alarm={a} now={now} />,
    },
    {
      key: 'status',
      dataIndex: 'status_id',
      title: t('alarms.page.status'),
      render: (id: AlarmStatusId, a) => (
        <Space size={4}>
          <Tag color={STATUS_COLORS[id]} data-testid={`alarm-status-${a.id}`} data-status={id}>
            {t(`alarms.status.${alarmStatusName(id)}`)}
          </Tag>
          {a.fault_id !== null && canSeeFaults && (
            <Link to={`/fault-detail/${a.fault_id}`} data-testid={`alarm-fault-${a.id}`}>
              {t('alarms.page.openFault')}
            </Link>
          )}
        </Space>
      ),
    },
  ];
  if (can.update)
    columns.push({
      key: 'actions',
      title: t('management.actions'),
      align: 'right',
      render: (_, a) =>
        undecided(a) && (
          <Space size={4}>
            <Popconfirm
              title={t('alarms.page.approveTitle')}
              description={t('alarms.page.approveConfirm')}
              okText={t('alarms.page.approve')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': `alarm-approve-ok-${a.id}` }}
              onConfirm={() => decide.mutateAsync({ id: a.id, decision: 'approve' }).catch(() => undefined)}
            >
              <Button
                size="small"
                type="primary"
                icon={<CheckOutlined />}
                loading={pending(a.id) && decide.variables?.decision === 'approve'}
                data-testid={`alarm-approve-${a.id}`}
              >
                {t('alarms.page.approve')}
              </Button>
            </Popconfirm>
            <Popconfirm
              title={t('alarms.page.rejectTitle')}
              description={t('alarms.page.rejectConfirm')}
              okText={t('alarms.page.reject')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true, 'data-testid': `alarm-reject-ok-${a.id}` }}
              onConfirm={() => decide.mutateAsync({ id: a.id, decision: 'reject' }).catch(() => undefined)}
            >
              <Button
                size="small"
                danger
                icon={<CloseOutlined />}
                loading={pending(a.id) && decide.variables?.decision === 'reject'}
                data-testid={`alarm-reject-${a.id}`}
              >
                {t('alarms.page.reject')}
              </Button>
            </Popconfirm>
          </Space>
        ),
    });

  const options = [
    ...ALARM_STATUS_IDS.map((id) => ({
      value: id,
      label: (
        <span data-testid={`alarm-filter-${alarmStatusName(id)}`}>
          {t(`alarms.status.${alarmStatusName(id)}`)} ({counts.get(id) ?? 0})
        </span>
      ),
    })),
    {
      value: 'all' as StatusFilter,
      label: (
        <span data-testid="alarm-filter-all">
          {t('alarms.page.all')} ({alarms.length})
        </span>
      ),
    },
  ];

  return (
    <Card data-testid="alarms-page" data-live-status={live}>
      <Flex vertical gap={16}>
        <Segmented<StatusFilter>
          options={options}
          value={status}
          onChange={setStatus}
          data-testid="alarm-status-filter"
        />
        <Table<AlarmRecord>
          rowKey="id"
          data-testid="alarm-table"
          columns={columns}
          dataSource={rows}
          loading={query.isPending}
          scroll={{ x: 1100 }}
          locale={{
            emptyText: (
              <Empty
                data-testid="alarm-empty"
                description={query.isError ? t('alarms.page.loadFailed') : t('alarms.page.empty')}
              />
            ),
          }}
          pagination={{
            defaultPageSize: 20,
            showSizeChanger: true,
            showTotal: (total) => t('management.total', { total }),
          }}
        />
      </Flex>
    </Card>
  );
}
