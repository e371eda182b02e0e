import Card from 'antd/es/card';
import Progress from 'antd/es/progress';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { HistoryImportList } from '@solar/shared';
import { formatNumber } from '../../lib/format';
import { PlantTime } from '../../lib/plant-time-view';
import { useHistoryImports } from './api/history-import';

type Item = HistoryImportList['items'][number];

const STATE_COLORS: Record<Item['state'], string> = {
  uploaded: 'default',
  queued: 'processing',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/**
 * The plant's latest history imports (GET plants/{id}/history-imports): file, status with the progress of
 * one under way, points stored, and when it started and finished on the plant's clock.
 */
export function RecentImports({ plantId }: { plantId: number }) {
  const { t, i18n } = useTranslation();
  const list = useHistoryImports(plantId);
  const zone = list.data?.time_zone ?? 'UTC';
  const columns: ColumnsType<Item> = [
    {
      key: 'file',
      dataIndex: 'file_name',
      title: t('historyImport.file'),
      render: (name: string) => <span className="mono">{name}</span>,
    },
    {
      key: 'status',
      title: t('historyImport.status'),
      render: (_, job) =>
        job.state === 'queued' || job.state === 'running' ? (
          <span className="nowrap">
            <Tag color={STATE_COLORS[job.state]}>{t(`historyImport.states.${job.state}`)}</Tag>
            <Progress
              size="small"
              style={{ width: 96, margin: 0 }}
              percent={job.points_total ? Math.floor((100 * job.points_done) / job.points_total) : 0}
            />
          </span>
        ) : (
          <Tag color={STATE_COLORS[job.state]}>{t(`historyImport.states.${job.state}`)}</Tag>
        ),
    },
    {
      key: 'points',
      title: t('historyImport.pointsStored'),
      align: 'right',
      render: (_, job) => <span className="mono">{formatNumber(job.points_new, i18n.language)}</span>,
    },
    {
      key: 'started',
      title: t('historyImport.startedAt'),
      render: (_, job) => <PlantTime at={job.started_at} zone={zone} />,
    },
    {
      key: 'finished',
      title: t('historyImport.finishedAt'),
      render: (_, job) => <PlantTime at={job.finished_at} zone={zone} />,
    },
  ];
  return (
    <Card size="small" title={t('historyImport.recent')} data-testid="history-recent">
      <Table<Item>
        size="small"
        rowKey="id"
        loading={list.isLoading}
        columns={columns}
        dataSource={list.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: t('historyImport.recentEmpty') }}
        scroll={{ x: 'max-content' }}
        data-testid="history-recent-table"
      />
    </Card>
  );
}
