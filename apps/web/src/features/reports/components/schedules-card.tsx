import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import PauseCircleOutlined from '@ant-design/icons/PauseCircleOutlined';
import PlayCircleOutlined from '@ant-design/icons/PlayCircleOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useTranslation } from 'react-i18next';
import type { ReportSchedule } from '@solar/shared';
import { RowActions } from '../../../components';
import { useEditor } from '../../../lib/editor-state';
import { weekdayName } from '../../../lib/intl';
import { formatPlantTime } from '../../../lib/plant-time';
import { useDeleteReportSchedule } from '../api/delete-report-schedule';
import { useReportSchedules } from '../api/get-report-schedules';
import { scheduleBodyOf, useSaveReportSchedule } from '../api/save-report-schedule';
import { ScheduleForm, type ScheduleDraft } from './schedule-form';

const STATUS_COLORS = { pending: 'default', sent: 'success', retrying: 'warning', failed: 'error' } as const;

/** A run's instant on the clock the subscription runs on, its zone named when the browser's differs. */
const formatRun = (iso: string | null, s: ReportSchedule, language: string) =>
  iso ? formatPlantTime(iso, s.time_zone, language) : '—';

/**
 * The user's report subscriptions: what, when (in the plants' time zone), the last delivery and its
 * failure if any; pause or resume at once, edit in a drawer, remove with confirmation.
 */
export function SchedulesCard({ draft }: { draft: ScheduleDraft }) {
  const { t, i18n } = useTranslation();
  const query = useReportSchedules();
  const save = useSaveReportSchedule();
  const remove = useDeleteReportSchedule();
  const editor = useEditor<ReportSchedule>();

  const when = (s: ReportSchedule) => {
    const base = t(`reportSchedules.frequencies.${s.frequency}`);
    const day = s.frequency === 'weekly' ? ` · ${weekdayName(s.weekday % 7, i18n.language, 'long')}` : '';
    return `${base}${day} · ${s.local_time} (${s.time_zone})`;
  };

  const columns: ColumnsType<ReportSchedule> = [
    {
      key: 'report',
      title: t('reportPage.type'),
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <span>{t(`reportPage.types.${s.report_type}`)}</span>
          <Typography.Text type="secondary" className="report-schedule-plants">
            {s.plant_names.join(', ')}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'when',
      title: t('reportSchedules.frequency'),
      render: (_, s) => <span data-testid={`report-schedule-when-${s.id}`}>{when(s)}</span>,
    },
    {
      key: 'formats',
      title: t('reportSchedules.formats'),
      responsive: ['md'],
      render: (_, s) => s.formats.map((f) => <Tag key={f}>{t(`reportPage.formats.${f}`)}</Tag>),
    },
    {
      key: 'status',
      title: t('reportSchedules.status'),
      render: (_, s) => (
        <Space direction="vertical" size={0} data-testid={`report-schedule-status-${s.id}`}>
          {s.is_paused ? (
            <Tag>{t('reportSchedules.statuses.paused')}</Tag>
          ) : (
            <Tag color={STATUS_COLORS[s.status]}>{t(`reportSchedules.statuses.${s.status}`)}</Tag>
          )}
          {s.last_error && (
            <Typography.Text type="danger" className="report-schedule-error">
              {t(s.last_error as 'reportSchedules.errors.sendFailed')}
              {s.failed_attempts > 0 &&
                ` · ${t('reportSchedules.failedAttempts', { count: s.failed_attempts })}`}
            </Typography.Text>
          )}
          {s.retry_at && (
            <Typography.Text type="secondary">
              {t('reportSchedules.retryAt', { time: formatRun(s.retry_at, s, i18n.language) })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'next',
      title: t('reportSchedules.nextRun'),
      responsive: ['sm'],
      render: (_, s) => (
        <span data-testid={`report-schedule-next-${s.id}`}>{formatRun(s.next_run_at, s, i18n.language)}</span>
      ),
    },
    {
      key: 'last',
      title: t('reportSchedules.lastSent'),
      responsive: ['lg'],
      render: (_, s) => formatRun(s.last_sent_at, s, i18n.language),
    },
    {
      key: 'actions',
      title: t('management.actions'),
      align: 'right',
      render: (_, s) => (
        <RowActions
          resource="report-schedule"
          id={s.id}
          onEdit={() => editor.openEdit(s)}
          onDelete={() => remove.mutate(s.id)}
          extra={
            <Tooltip title={t(s.is_paused ? 'reportSchedules.resume' : 'reportSchedules.pause')}>
              <Button
                type="text"
                icon={s.is_paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
                loading={save.isPending && save.variables?.id === s.id}
                onClick={() =>
                  save.mutate({ id: s.id, body: { ...scheduleBodyOf(s), is_paused: !s.is_paused } })
                }
                aria-label={t(s.is_paused ? 'reportSchedules.resume' : 'reportSchedules.pause')}
                data-testid={`report-schedule-pause-${s.id}`}
              />
            </Tooltip>
          }
        />
      ),
    },
  ];

  return (
    <Card
      title={t('reportSchedules.title')}
      data-testid="report-schedules"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={editor.openCreate}
          data-testid="report-schedule-create"
        >
          {t('reportSchedules.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('reportSchedules.hint')}</Typography.Paragraph>
      <Table<ReportSchedule>
        rowKey="id"
        data-testid="report-schedule-table"
        columns={columns}
        dataSource={query.data ?? []}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={false}
        locale={{ emptyText: t('reportSchedules.empty') }}
      />
      <ScheduleForm
        key={editor.session}
        open={editor.open}
        schedule={editor.record}
        draft={draft}
        onClose={editor.close}
      />
    </Card>
  );
}
