import Badge from 'antd/es/badge';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { LatestValue } from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { useLiveStatus, useLiveValues, type LiveValue } from '../../../lib/live-stream';
import type { DataSignal } from '../data-signals';
import { PlantTime } from '../../../lib/plant-time-view';
import { signalName } from '../../../lib/signal-name';

interface Row {
  signal: DataSignal;
  current: LiveValue | undefined;
}

interface LiveValuesTableProps {
  signals: readonly DataSignal[];
  /** Stored values to show until the first live ones arrive. */
  latest: Map<number, LatestValue>;
  /** The plant's IANA zone: the times are on its clock. */
  timeZone: string;
}

/** The newest value of each chosen signal, kept current by the tab's live connection. */
export function LiveValuesTable({ signals, latest, timeZone }: LiveValuesTableProps) {
  const { t, i18n } = useTranslation();
  const live = useLiveValues(signals.map((s) => s.id));
  const status = useLiveStatus();
  const rows: Row[] = signals.map((signal) => {
    const pushed = live.get(signal.id);
    const stored = latest.get(signal.id);
    const storedValue = stored && { ts: Date.parse(stored.ts), value: stored.value };
    const current = !storedValue || (pushed && pushed.ts >= storedValue.ts) ? pushed : storedValue;
    return { signal, current };
  });

  const columns: ColumnsType<Row> = [
    { key: 'device', title: t('data.device'), render: (_, r) => r.signal.device_name },
    { key: 'signal', title: t('data.signal'), render: (_, r) => signalName(r.signal) },
    {
      key: 'value',
      title: t('data.value'),
      align: 'right',
      render: (_, r) => (
        <span className="mono" data-testid={`live-value-${r.signal.id}`}>
          {r.current ? formatNumber(r.current.value, i18n.language, 3) : '–'}
        </span>
      ),
    },
    { key: 'unit', title: t('data.unit'), render: (_, r) => r.signal.unit ?? '' },
    {
      key: 'time',
      title: t('data.time'),
      render: (_, r) =>
        r.current && (
          <PlantTime
            at={r.current.ts}
            zone={timeZone}
            style="dateTimeSeconds"
            testId={`live-time-${r.signal.id}`}
          />
        ),
    },
  ];

  return (
    <>
      <div className="data-live-status" data-testid="live-status" data-status={status}>
        <Badge status={status === 'open' ? 'processing' : status === 'retrying' ? 'warning' : 'default'} />
        <span>{t(`stream.status.${status}`)}</span>
      </div>
      <Table<Row>
        rowKey={(r) => r.signal.id}
        size="small"
        pagination={false}
        columns={columns}
        dataSource={rows}
        data-testid="live-values-table"
        locale={{ emptyText: t('data.noSignals') }}
      />
    </>
  );
}
