import { useState } from 'react';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  DATA_QUALITY_REASONS,
  INFORMATIONAL_REASONS,
  type DataQualityProblem,
  type DataQualityReason,
} from '@solar/shared';
import { prefixedKey } from '../../../lib/i18n-keys';
import { useCan } from '../../../lib/permissions';
import { useDataQualityProblems } from '../api/get-problems';
import { periodText } from '../model';
import { AcceptFlagButton } from './accept-flag-button';
import { FlagAmount } from './data-quality-card';
import { ReasonTag } from './reason-tag';

const PAGE_SIZE = 20;

/**
 * The fleet's open data problems (unaccepted, not informational), newest first, in the admin panel's
 * collection health: each with its plant, device and period on the plant's clock; acceptable from here.
 */
export function DataQualityProblems() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState<DataQualityReason | undefined>(undefined);
  const query = useDataQualityProblems({ page, pageSize: PAGE_SIZE, ...(reason ? { reason } : {}) });
  const canAccept = useCan('plant').update;
  const columns: ColumnsType<DataQualityProblem> = [
    {
      key: 'plant',
      title: t('dataQuality.plant'),
      render: (_, p) => (
        <>
          <Link to={`/santral-detay/${p.plant_id}?date=${p.local_day}`}>{p.plant_name}</Link>
          <div>
            <Typography.Text type="secondary">
              {[p.device_name, p.signal_key].filter(Boolean).join(' / ') || t('dataQuality.wholePlant')}
            </Typography.Text>
          </div>
        </>
      ),
    },
    {
      key: 'period',
      title: t('dataQuality.period'),
      render: (_, p) => periodText(p, p.time_zone, i18n.language),
    },
    { key: 'reason', title: t('dataQuality.reason'), render: (_, p) => <ReasonTag flag={p} /> },
    { key: 'amount', title: t('dataQuality.amount'), render: (_, p) => <FlagAmount flag={p} /> },
    ...(canAccept
      ? [
          {
            key: 'accept',
            title: '',
            render: (_: unknown, p: DataQualityProblem) => <AcceptFlagButton flag={p} />,
          },
        ]
      : []),
  ];
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }} data-testid="data-quality-problems">
      <Space wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('dataQuality.problemsTitle')}
        </Typography.Title>
        <Select<DataQualityReason>
          allowClear
          style={{ minWidth: 220 }}
          placeholder={t('dataQuality.reason')}
          value={reason}
          onChange={(value) => {
            setReason(value);
            setPage(1);
          }}
          options={DATA_QUALITY_REASONS.filter((r) => !INFORMATIONAL_REASONS.includes(r)).map((r) => ({
            value: r,
            label: t(prefixedKey('dataQuality.reasons', `${r}.name`)),
          }))}
        />
      </Space>
      <Table<DataQualityProblem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching && !query.data}
        locale={{ emptyText: t('dataQuality.problemsNone') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
      />
    </Space>
  );
}
