import { useMemo } from 'react';
import Drawer from 'antd/es/drawer';
import Empty from 'antd/es/empty';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DeviceStatusItem, TopologyNode } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { prefixedKey } from '../../../lib/i18n-keys';
import { useLiveValues } from '../../../lib/live-stream';
import { useCan } from '../../../lib/permissions';
import { StatusTag } from '../../plants';
import { usePlantCatalog, usePlantLatest } from '../../telemetry';
import { signalName } from '../../../lib/signal-name';
import { PlantTime } from '../../../lib/plant-time-view';

/** A device without a page of its own (meter, transformer, string box, station…): its status and values. */
export function DeviceDrawer({
  plantId,
  timeZone,
  node,
  status,
  onClose,
}: {
  plantId: number;
  /** The plant's IANA zone: the last data time is on its clock. */
  timeZone: string;
  node: TopologyNode | null;
  status: DeviceStatusItem | undefined;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const catalog = usePlantCatalog(plantId);
  const latest = usePlantLatest(plantId);
  const canPlant = useCan('plant').view;
  const device = (catalog.data ?? []).find((d) => d.id === node?.device_id);
  const signals = useMemo(() => device?.signals ?? [], [device]);
  const live = useLiveValues(useMemo(() => signals.map((s) => s.id), [signals]));
  const stored = useMemo(() => new Map((latest.data ?? []).map((v) => [v.signal_id, v])), [latest.data]);
  const language = i18n.language;
  const rows = signals.flatMap((s) => {
    const value = live.get(s.id)?.value ?? stored.get(s.id)?.value;
    return value === undefined ? [] : [{ id: s.id, name: signalName(s), unit: s.unit, value }];
  });

  return (
    <Drawer open={node !== null} onClose={onClose} title={node?.name ?? ''} data-testid="sl-drawer">
      {node && (
        <dl className="sl-drawer-facts">
          <dt>{t('singleLine.drawer.type')}</dt>
          <dd>{node.device_type ? t(prefixedKey('devices.types', node.device_type)) : ''}</dd>
          <dt>{t('singleLine.drawer.status')}</dt>
          <dd>{status ? <StatusTag status={status.status} /> : '–'}</dd>
          <dt>{t('singleLine.drawer.lastData')}</dt>
          <dd>
            {status?.last_data_at ? (
              <PlantTime at={status.last_data_at} zone={timeZone} testId="sl-drawer-last-data" />
            ) : (
              t('singleLine.drawer.never')
            )}
          </dd>
          <dt>{t('singleLine.drawer.alarms')}</dt>
          <dd>{status ? status.active_alarms.total : '–'}</dd>
        </dl>
      )}
      <h3 className="sl-drawer-heading">{t('singleLine.drawer.values')}</h3>
      {rows.length === 0 ? (
        <Empty description={t('singleLine.drawer.noValues')} />
      ) : (
        <ul className="sl-drawer-values" data-testid="sl-drawer-values">
          {rows.map((r) => (
            <li key={r.id}>
              <span>{r.name}</span>
              <b>
                {formatNumber(r.value, language, 2)}
                {r.unit ? ` ${r.unit}` : ''}
              </b>
            </li>
          ))}
        </ul>
      )}
      {canPlant && (
        <Link to={`/santral-detay/${plantId}`} data-testid="sl-drawer-plant">
          {t('singleLine.drawer.openPlant')}
        </Link>
      )}
    </Drawer>
  );
}
