import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { Signal } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { formatNumber } from '../../lib/format';
import { useEditor } from '../../lib/editor-state';
import { isActiveParam, sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { useDevice } from '../devices';
import { useSignals } from './api/get-signals';
import { useDeleteSignal } from './api/delete-signal';
import { SignalForm } from './components/signal-form';
import { signalName } from '../../lib/signal-name';

/** The signals of one device with search, paging, sorting and CRUD. */
function DeviceSignals({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = useCan('device_signals');
  const canSeeDevices = useCan('device_management').view;
  const device = useDevice(deviceId, canSeeDevices);
  const list = useListState('key', {});
  const { state } = list;
  const query = useSignals({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
    is_active: isActiveParam(state.active),
    device_id: deviceId,
  });
  const remove = useDeleteSignal();
  const editor = useEditor<Signal>();
  const deviceName = device.data?.name ?? query.data?.items[0]?.device_name ?? `#${deviceId}`;

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Signal> = [
    {
      key: 'key',
      dataIndex: 'key',
      title: t('signals.key'),
      render: (key: string) => <span className="mono">{key}</span>,
      ...sortable('key'),
    },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('signals.name'),
      render: (_: string, signal: Signal) => signalName(signal),
      ...sortable('name'),
    },
    { key: 'unit', dataIndex: 'unit', title: t('signals.unit'), ...sortable('unit') },
    {
      key: 'data_type',
      dataIndex: 'data_type',
      title: t('signals.data_type'),
      render: (v: Signal['data_type']) => t(`signals.dataTypes.${v}`),
    },
    {
      key: 'register_type',
      dataIndex: 'register_type',
      title: t('signals.register_type'),
      responsive: ['md'],
      render: (v: Signal['register_type']) => (v ? t(`signals.registerTypes.${v}`) : ''),
    },
    {
      key: 'address',
      dataIndex: 'address',
      title: t('signals.address'),
      align: 'right',
      ...sortable('address'),
    },
    {
      key: 'word_order',
      dataIndex: 'word_order',
      title: t('signals.word_order'),
      responsive: ['lg'],
      render: (v: Signal['word_order']) => (v ? t(`signals.wordOrders.${v}`) : ''),
    },
    {
      key: 'scale',
      dataIndex: 'scale',
      title: t('signals.scale'),
      align: 'right',
      responsive: ['lg'],
      render: (v: number) => formatNumber(v, i18n.language, 6),
    },
    {
      key: 'is_counter',
      dataIndex: 'is_counter',
      title: t('signals.is_counter'),
      responsive: ['md'],
      render: (v: boolean) => (v ? <Tag color="blue">{t('signals.counter')}</Tag> : ''),
    },
    {
      key: 'is_active',
      dataIndex: 'is_active',
      title: t('management.status'),
      render: (active: boolean) => <ActiveTag active={active} />,
      ...sortable('is_active'),
    },
    {
      key: 'actions',
      fixed: 'right',
      title: t('management.actions'),
      align: 'right',
      render: (_, signal) => (
        <RowActions
          resource="signal"
          id={signal.id}
          onEdit={can.update ? () => editor.openEdit(signal) : undefined}
          onDelete={can.delete ? () => remove.mutate(signal.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="signal"
      onSearch={list.setSearch}
      createLabel={t('signals.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      filters={<ActiveFilterSelect resource="signal" value={state.active} onChange={list.setActive} />}
      header={
        <div className="management-heading">
          {canSeeDevices && (
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              onClick={() => void navigate('/device-management')}
              aria-label={t('signals.backToDevices')}
              data-testid="signal-back"
            />
          )}
          <Typography.Title level={5} className="management-heading-title" data-testid="signal-device-name">
            {t('signals.ofDevice', { name: deviceName })}
          </Typography.Title>
          {device.data && (
            <Typography.Text type="secondary">
              {device.data.plant_name} · {t(`devices.types.${device.data.type}`)} ·{' '}
              {t(`devices.protocols.${device.data.protocol}`)}
            </Typography.Text>
          )}
        </div>
      }
    >
      <Table<Signal>
        rowKey="id"
        data-testid="signal-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        {...list.tableProps(query.data?.total)}
      />
      <SignalForm
        key={editor.session}
        deviceId={deviceId}
        ratedPowerKw={device.data?.rated_power_kw ?? null}
        open={editor.open}
        signal={editor.record}
        onClose={editor.close}
      />
    </ManagementCard>
  );
}

/** /signals/:deviceId: the signals (tags) of one device. */
export default function SignalsPage() {
  const id = Number(useParams().deviceId);
  if (!Number.isInteger(id) || id <= 0) return <Empty data-testid="signal-unavailable" />;
  return <DeviceSignals key={id} deviceId={id} />;
}
