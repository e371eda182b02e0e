import { useMemo } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CatalogDevice } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { useLiveValues } from '../../../lib/live-stream';
import { usePlantCatalog, usePlantLatest } from '../../telemetry';
import { usePlantDeviceStatus } from '../api/get-device-status';
import { StatusTag } from './status-tag';
import { signalName } from '../../../lib/signal-name';

/** The values worth a glance per device type, in order; up to three are shown. */
const SHOWN_KEYS = [
  'ac_power',
  'irradiance',
  'module_temperature',
  'ambient_temperature',
  'export_energy',
  'import_energy',
  'active_power',
  'power',
  'oil_temperature',
  'daily_energy',
  'temperature',
];

/** Where a device's own page is, when it has one. */
const pageOf = (d: CatalogDevice): string | null =>
  d.type === 'inverter' ? `/inverter-detay/${d.id}` : d.type === 'camera' ? `/kamera-detay/${d.id}` : null;

/**
 * The plant's devices with their newest values, kept live over the stream, and their status as the server
 * derives it (refetched on the plant's alarm events and every minute).
 */
export function DeviceList({ plantId }: { plantId: number }) {
  const { t, i18n } = useTranslation();
  const catalog = usePlantCatalog(plantId);
  const latest = usePlantLatest(plantId);
  const devices = useMemo(() => catalog.data ?? [], [catalog.data]);
  const shown = useMemo(
    () =>
      new Map(
        devices.map((d) => [
          d.id,
          SHOWN_KEYS.flatMap((k) => d.signals.filter((s) => s.key === k)).slice(0, 3),
        ]),
      ),
    [devices],
  );
  const live = useLiveValues(useMemo(() => [...shown.values()].flat().map((s) => s.id), [shown]));
  const stored = useMemo(() => new Map((latest.data ?? []).map((v) => [v.signal_id, v])), [latest.data]);
  const status = usePlantDeviceStatus(plantId);
  const statusOf = useMemo(
    () => new Map((status.data?.items ?? []).map((i) => [i.device_id, i.status])),
    [status.data],
  );

  if (catalog.isError || latest.isError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="plant-devices-error"
        title={t('plantView.common.error')}
        action={
          <Button onClick={() => void Promise.all([catalog.refetch(), latest.refetch()])}>
            {t('plantView.common.retry')}
          </Button>
        }
      />
    );
  return (
    <Table<CatalogDevice>
      data-testid="plant-devices"
      size="small"
      rowKey="id"
      loading={catalog.isLoading}
      dataSource={devices}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('plantView.devices.empty') }}
      columns={[
        {
          key: 'name',
          title: t('plantView.devices.name'),
          render: (_, d) => {
            const to = pageOf(d);
            return to ? <Link to={to}>{d.name}</Link> : d.name;
          },
        },
        { key: 'type', title: t('plantView.devices.type'), render: (_, d) => t(`devices.types.${d.type}`) },
        {
          key: 'status',
          title: t('plantView.devices.status'),
          render: (_, d) => {
            const value = statusOf.get(d.id);
            return value === undefined ? '–' : <StatusTag status={value} />;
          },
        },
        {
          key: 'values',
          title: t('plantView.devices.values'),
          render: (_, d) => (
            <span className="device-values">
              {(shown.get(d.id) ?? []).map((s) => {
                const v = live.get(s.id)?.value ?? stored.get(s.id)?.value;
                if (v === undefined) return null;
                return (
                  <span key={s.id} data-testid={`device-value-${s.id}`}>
                    {signalName(s)}: <b>{formatNumber(v, i18n.language, 1)}</b>
                    {s.unit ? ` ${s.unit}` : ''}
                  </span>
                );
              })}
            </span>
          ),
        },
      ]}
    />
  );
}
