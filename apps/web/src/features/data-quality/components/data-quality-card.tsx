import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { DataQualityFlag } from '@solar/shared';
import { prefixedKey } from '../../../lib/i18n-keys';
import { useCan } from '../../../lib/permissions';
import { useDataQuality, type DataQualitySubject } from '../api/get-data-quality';
import { detailText, flagStatus, formatShare, periodText } from '../model';
import { AcceptFlagButton } from './accept-flag-button';
import { ReasonTag } from './reason-tag';

/** How much data a flag concerns: the readings it covers and, for a gap, those missing; then its figures. */
export function FlagAmount({ flag }: { flag: DataQualityFlag }) {
  const { t, i18n } = useTranslation();
  const parts = [
    ...(flag.readings > 0 ? [t('dataQuality.readings', { count: flag.readings })] : []),
    ...(flag.missing > 0 ? [t('dataQuality.missing', { count: flag.missing })] : []),
  ];
  const { missing: _missing, ...figures } = flag.detail;
  const detail = detailText(figures, i18n.language);
  return (
    <>
      <div>{parts.join(', ') || '—'}</div>
      {detail && <Typography.Text type="secondary">{detail}</Typography.Text>}
    </>
  );
}

/** Open, informational, or accepted by whom and why. */
export function FlagStatus({ flag }: { flag: DataQualityFlag }) {
  const { t } = useTranslation();
  const status = flagStatus(flag);
  if (status !== 'accepted') return <Tag>{t(prefixedKey('dataQuality', status))}</Tag>;
  return (
    <Typography.Text type="secondary" data-testid={`accepted-flag-${flag.id}`}>
      {t('dataQuality.acceptedBy', { name: flag.accepted_by ?? '—', note: flag.accept_note ?? '' })}
    </Typography.Text>
  );
}

/**
 * The data-quality card of the plant and inverter pages: over the page's day (the plant's today when null),
 * the share of the expected readings with an open problem, each reason with how much data it concerns, and
 * each flag's period on the plant's clock; users who may update plants accept a flag with a note.
 */
export function DataQualityCard({
  subject,
  day,
  className,
}: {
  subject: DataQualitySubject;
  day: string | null;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const query = useDataQuality(subject, day, day);
  const canAccept = useCan('plant').update;
  const data = query.data;
  const showDevice = 'plantId' in subject;

  const columns: ColumnsType<DataQualityFlag> = [
    {
      key: 'period',
      title: t('dataQuality.period'),
      render: (_, f) => (data ? periodText(f, data.time_zone, language) : ''),
    },
    { key: 'reason', title: t('dataQuality.reason'), render: (_, f) => <ReasonTag flag={f} /> },
    ...(showDevice
      ? [
          {
            key: 'source',
            title: t('dataQuality.source'),
            render: (_: unknown, f: DataQualityFlag) =>
              f.device_name === null
                ? t('dataQuality.wholePlant')
                : [f.device_name, f.signal_key].filter(Boolean).join(' / '),
          },
        ]
      : [
          {
            key: 'signal',
            title: t('dataQuality.source'),
            render: (_: unknown, f: DataQualityFlag) => f.signal_key ?? '—',
          },
        ]),
    { key: 'amount', title: t('dataQuality.amount'), render: (_, f) => <FlagAmount flag={f} /> },
    {
      key: 'status',
      title: t('dataQuality.status'),
      render: (_, f) =>
        canAccept && flagStatus(f) === 'open' ? <AcceptFlagButton flag={f} /> : <FlagStatus flag={f} />,
    },
  ];

  return (
    <Card title={t('dataQuality.title')} className={className} data-testid="data-quality-card">
      <Space direction="vertical" size="small" style={{ width: '100%' }}>
        {data && (
          <Alert
            type={data.problem_readings > 0 ? 'warning' : 'success'}
            showIcon
            data-testid="data-quality-summary"
            message={
              data.problem_share === null
                ? t('dataQuality.summaryCount', { count: data.problem_readings })
                : t('dataQuality.summary', { share: formatShare(data.problem_share, language) })
            }
            description={
              data.by_reason.length > 0 && (
                <Space size={[4, 4]} wrap>
                  {data.by_reason.map((r) => (
                    <span key={r.reason}>
                      <ReasonTag flag={{ reason: r.reason, accepted_at: null, informational: false }} />
                      {r.share === null
                        ? t('dataQuality.readings', { count: r.readings })
                        : formatShare(r.share, language)}
                    </span>
                  ))}
                </Space>
              )
            }
          />
        )}
        {data && data.skipped_checks.length > 0 && (
          <Alert
            type="info"
            showIcon
            data-testid="data-quality-skipped"
            message={t('dataQuality.skippedNoLocation', {
              checks: data.skipped_checks.map((c) => t(prefixedKey('dataQuality.checks', c))).join(', '),
            })}
          />
        )}
        <Table<DataQualityFlag>
          rowKey="id"
          size="small"
          data-testid="data-quality-flags"
          columns={columns}
          dataSource={data?.flags ?? []}
          loading={query.isFetching && !data}
          locale={{ emptyText: t('dataQuality.noFlags') }}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
        />
      </Space>
    </Card>
  );
}
