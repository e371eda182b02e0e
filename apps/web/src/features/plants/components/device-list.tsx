import { useEffect, useMemo, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AlarmRecord, CatalogDevice, OperatingStatus } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { useLiveValues } from '../../../lib/live-stream';
import { usePlantCatalog, usePlantLatest } from '../../telemetry';
import { StatusTag } from './status-tag';

/** Silence longer than this makes a device offline (the server's comm-loss rule uses the poll interval). */
const STALE_MS = 15 * 60_000;
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
 * Status of a device from what the page knows: an active high or dangerous alarm is a fault, silence is
 * offline, a lower alarm a warning, else normal (the plant's precedence, without the daylight rule).
 */
function deviceStatus(alarms: readonly AlarmRecord[], lastTs: number | null, now: number): OperatingStatus {
  const active = alarms.filter((a) => a.status === 'active');
  if (active.some((a) => a.priority_id >= 3)) return 'fault';
  if (lastTs === null || now - lastTs > STALE_MS) return 'offline';
  if (active.length > 0) return 'warning';
  return 'normal';
}

/** The plant's devices with their status and newest values, kept live over the stream. */
export function DeviceList({ plantId, alarms }: { plantId: number; alarms: readonly AlarmRecord[] }) {
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
  const lastOf = useMemo(() => {
    const map = new Map<number, number>();
    for (const v of latest.data ?? [])
      map.set(v.device_id, Math.max(map.get(v.device_id) ?? 0, Date.parse(v.ts)));
    return map;
  }, [latest.data]);
  // The clock that ages silent devices into offline, renewed each minute.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

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
            let last = lastOf.get(d.id) ?? null;
            for (const s of d.signals) {
              const v = live.get(s.id);
              if (v && (last === null || v.ts > last)) last = v.ts;
            }
            return (
              <StatusTag
                status={deviceStatus(
                  alarms.filter((a) => a.device_id === d.id),
                  last,
                  now,
                )}
              />
            );
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
                    {s.name}: <b>{formatNumber(v, i18n.language, 1)}</b>
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
