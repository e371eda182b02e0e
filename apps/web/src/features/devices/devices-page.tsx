import Button from 'antd/es/button';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import HistoryOutlined from '@ant-design/icons/HistoryOutlined';
import NodeIndexOutlined from '@ant-design/icons/NodeIndexOutlined';
import ProfileOutlined from '@ant-design/icons/ProfileOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEVICE_TYPES, PROTOCOLS, type Device, type DeviceType, type Protocol } from '@solar/shared';
import { ActiveFilterSelect, ActiveTag, ManagementCard, RowActions } from '../../components';
import { formatNumber } from '../../lib/format';
import { usePlantOptions } from '../plants';
import { useEditor } from '../../lib/editor-state';
import { isActiveParam, sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { useDevices } from './api/get-devices';
import { useDeleteDevice } from './api/delete-device';
import { ApplyTemplateDrawer } from './components/apply-template-drawer';
import { DeviceForm } from './components/device-form';
import { RegisterTemplatesSection } from './components/register-templates-section';
import './devices.css';

interface Filters {
  plantId: number | undefined;
  type: DeviceType | undefined;
  protocol: Protocol | undefined;
}

/** Where a device is reached: `ip:port · #slave`, `path or gateway · #slave · baud`, the MQTT topic, or nothing. */
function connectionOf(d: Device): string {
  if (d.protocol === 'modbus_tcp') return `${d.ip ?? ''}:${d.port ?? ''} · #${d.slave_id ?? ''}`;
  if (d.protocol === 'modbus_rtu') {
    const link = d.serial_path ?? `${d.ip ?? ''}:${d.port ?? ''}`;
    return `${link} · #${d.slave_id ?? ''} · ${d.baud_rate ?? ''} bd`;
  }
  if (d.protocol === 'mqtt') return d.mqtt_topic ?? '';
  return '';
}

/**
 * /device-management: the devices of the plants with filters, paging, CRUD, a link to their signals and
 * "Apply template" on Modbus devices; below, the register templates (shipped and the company's own).
 */
export default function DevicesPage() {
  const { t, i18n } = useTranslation();
  const can = useCan('device_management');
  const canSeeSignals = useCan('device_signals').view;
  const canSeePlants = useCan('plant_management').view;
  const list = useListState<Filters>('name', { plantId: undefined, type: undefined, protocol: undefined });
  const { state } = list;
  const plants = usePlantOptions({}, canSeePlants);
  const query = useDevices({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    q: state.q || undefined,
    is_active: isActiveParam(state.active),
    plant_id: state.filters.plantId,
    type: state.filters.type,
    protocol: state.filters.protocol,
  });
  const remove = useDeleteDevice();
  const editor = useEditor<Device>();
  const [applyTo, setApplyTo] = useState<Device | null>(null);

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Device> = [
    { key: 'name', dataIndex: 'name', title: t('devices.name'), ...sortable('name') },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('devices.type'),
      render: (type: DeviceType) => t(`devices.types.${type}`),
      ...sortable('type'),
    },
    { key: 'plant_name', dataIndex: 'plant_name', title: t('devices.plant'), ...sortable('plant_name') },
    { key: 'brand', dataIndex: 'brand', title: t('devices.brand'), responsive: ['lg'], ...sortable('brand') },
    { key: 'model', dataIndex: 'model', title: t('devices.model'), responsive: ['xl'], ...sortable('model') },
    {
      key: 'rated_power_kw',
      dataIndex: 'rated_power_kw',
      title: t('devices.rated_power_kw'),
      align: 'right',
      responsive: ['lg'],
      render: (v: number | null) => formatNumber(v, i18n.language),
      ...sortable('rated_power_kw'),
    },
    {
      key: 'protocol',
      dataIndex: 'protocol',
      title: t('devices.protocol'),
      // The longest label ("HTTP (toplu gönderim)") may take two lines rather than push the last columns out.
      render: (protocol: Protocol) => (
        <Tag className="device-protocol-tag">{t(`devices.protocols.${protocol}`)}</Tag>
      ),
      ...sortable('protocol'),
    },
    {
      key: 'connection',
      title: t('devices.connection'),
      responsive: ['md'],
      render: (_, d) => <span className="mono">{connectionOf(d)}</span>,
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
      render: (_, device) => (
        <RowActions
          resource="device"
          id={device.id}
          extra={
            <>
              {can.update && (device.protocol === 'modbus_tcp' || device.protocol === 'modbus_rtu') && (
                <Tooltip title={t('registerTemplates.apply')}>
                  <Button
                    type="text"
                    icon={<ProfileOutlined />}
                    aria-label={t('registerTemplates.apply')}
                    onClick={() => setApplyTo(device)}
                    data-testid={`device-apply-template-${device.id}`}
                  />
                </Tooltip>
              )}
              {canSeeSignals && (
                <Tooltip title={t('devices.signals')}>
                  <Link
                    to={`/signals/${device.id}`}
                    className="row-icon-link"
                    aria-label={t('devices.signals')}
                    data-testid={`device-signals-${device.id}`}
                  >
                    <NodeIndexOutlined />
                  </Link>
                </Tooltip>
              )}
            </>
          }
          onEdit={can.update ? () => editor.openEdit(device) : undefined}
          onDelete={can.delete ? () => remove.mutate(device.id) : undefined}
        />
      ),
    },
  ];

  return (
    <>
      <ManagementCard
        resource="device"
        onSearch={list.setSearch}
        createLabel={t('devices.create')}
        onCreate={can.create ? editor.openCreate : undefined}
        filters={
          <>
            {canSeePlants && (
              <Select<number>
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('devices.allPlants')}
                options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={state.filters.plantId}
                onChange={(v) => list.setFilter('plantId', v)}
                className="management-filter-wide"
                aria-label={t('devices.allPlants')}
                data-testid="device-filter-plant"
              />
            )}
            <Select<DeviceType>
              allowClear
              placeholder={t('devices.allTypes')}
              options={DEVICE_TYPES.map((v) => ({ value: v, label: t(`devices.types.${v}`) }))}
              value={state.filters.type}
              onChange={(v) => list.setFilter('type', v)}
              className="management-filter-wide"
              aria-label={t('devices.allTypes')}
              data-testid="device-filter-type"
            />
            <Select<Protocol>
              allowClear
              placeholder={t('devices.allProtocols')}
              options={PROTOCOLS.map((v) => ({ value: v, label: t(`devices.protocols.${v}`) }))}
              value={state.filters.protocol}
              onChange={(v) => list.setFilter('protocol', v)}
              className="management-filter"
              aria-label={t('devices.allProtocols')}
              data-testid="device-filter-protocol"
            />
            <ActiveFilterSelect resource="device" value={state.active} onChange={list.setActive} />
            {can.create && state.filters.plantId !== undefined && (
              <Link to={`/history-import/${state.filters.plantId}`} data-testid="device-history-import">
                <Button icon={<HistoryOutlined />}>{t('historyImport.open')}</Button>
              </Link>
            )}
          </>
        }
      >
        <Table<Device>
          rowKey="id"
          data-testid="device-table"
          columns={columns}
          dataSource={query.data?.items}
          loading={query.isFetching}
          // As the fault list: texts wrap at desktop width so that the last columns stay in view.
          scroll={{ x: true }}
          tableLayout="auto"
          {...list.tableProps(query.data?.total)}
        />
        <DeviceForm key={editor.session} open={editor.open} device={editor.record} onClose={editor.close} />
        <ApplyTemplateDrawer key={applyTo?.id ?? 0} device={applyTo} onClose={() => setApplyTo(null)} />
      </ManagementCard>
      <RegisterTemplatesSection />
    </>
  );
}
