import Alert from 'antd/es/alert';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { EdgeAgentHealthItem } from '@solar/shared';
import { PlantTime } from '../../../lib/plant-time-view';

/** A stale agent or one whose clock is off: what the table puts first (the server's order) and marks. */
export const agentProblem = (a: EdgeAgentHealthItem) => a.stale || a.clock_problem;

/**
 * The plants' edge agents from their latest health reports (docs/edge.md): every time is the plant's, since
 * an agent belongs to its plant; a stale report and a clock offset beyond the bound are shown as problems.
 */
export function EdgeAgents({ agents }: { agents: readonly EdgeAgentHealthItem[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.replace('_', '-');
  const n = (value: number) => value.toLocaleString(locale);
  if (agents.length === 0)
    return <Alert type="info" showIcon data-testid="edge-agents" message={t('admin.health.agents.none')} />;
  const problems = agents.filter(agentProblem).length;
  const columns: ColumnsType<EdgeAgentHealthItem> = [
    {
      key: 'agent',
      title: t('admin.health.agents.agent'),
      render: (_, a) => (
        <>
          <div className="mono">{a.agent_id}</div>
          <Typography.Text type="secondary">{a.plant_name}</Typography.Text>
        </>
      ),
    },
    { key: 'version', dataIndex: 'version', title: t('admin.health.agents.version') },
    {
      key: 'last_report_at',
      title: t('admin.health.agents.lastReport'),
      render: (_, a) => (
        <Space size={4} wrap>
          <PlantTime at={a.last_report_at} zone={a.plant_time_zone} style="dateTimeSeconds" />
          {a.stale && (
            <Tag color="red" data-testid={`agent-stale-${a.agent_id}`}>
              {t('admin.health.agents.stale')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      key: 'queue_depth',
      title: t('admin.health.agents.queue'),
      align: 'right',
      render: (_, a) => n(a.queue_depth),
    },
    {
      key: 'oldest_unsent_at',
      title: t('admin.health.agents.oldestUnsent'),
      render: (_, a) =>
        a.oldest_unsent_at ? (
          <PlantTime at={a.oldest_unsent_at} zone={a.plant_time_zone} style="dateTimeSeconds" />
        ) : (
          '—'
        ),
    },
    {
      key: 'dropped_total',
      title: t('admin.health.agents.dropped'),
      align: 'right',
      render: (_, a) => (a.dropped_total > 0 ? <Tag color="orange">{n(a.dropped_total)}</Tag> : '0'),
    },
    {
      key: 'poll_failures',
      title: t('admin.health.agents.pollFailures'),
      align: 'right',
      render: (_, a) => n(a.poll_failures),
    },
    {
      key: 'clock_offset_ms',
      title: t('admin.health.agents.clockOffset'),
      align: 'right',
      render: (_, a) => {
        const text = t('admin.health.agents.seconds', {
          value: (a.clock_offset_ms / 1000).toLocaleString(locale, {
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
            signDisplay: 'exceptZero',
          }),
        });
        return a.clock_problem ? (
          <Tag color="red" data-testid={`agent-clock-${a.agent_id}`}>
            {text}
          </Tag>
        ) : (
          text
        );
      },
    },
  ];
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }} data-testid="edge-agents">
      <Alert
        type={problems ? 'warning' : 'success'}
        showIcon
        message={t('admin.health.agents.summary', { agents: agents.length, problems })}
      />
      <Table<EdgeAgentHealthItem>
        rowKey={(a) => `${a.plant_id}:${a.agent_id}`}
        size="small"
        data-testid="edge-agents-table"
        columns={columns}
        dataSource={[...agents]}
        scroll={{ x: 'max-content' }}
        rowClassName={(a) => (agentProblem(a) ? 'admin-health-problem' : '')}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
      />
    </Space>
  );
}
