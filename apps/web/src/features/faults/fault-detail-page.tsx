import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Descriptions from 'antd/es/descriptions';
import Row from 'antd/es/row';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Timeline from 'antd/es/timeline';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { NotFoundPage } from '../../components';
import { ApiError } from '../../lib/problem';
import { errorMessageOf } from '../../lib/api-errors';
import { useCan } from '../../lib/permissions';
import type { FaultDetail } from '@solar/shared';
import { useFault } from './api/get-fault';
import { FaultChart } from './components/fault-chart';
import { FaultComments } from './components/fault-comments';
import { FaultForm } from './components/fault-form';
import { PriorityTag, StatusTag } from './components/fault-tags';
import { FaultWorkForm } from './components/fault-work-form';
import { STATUS_COLORS, formatDuration } from './format';
import { useFaultText } from './fault-title';
import { formatPlantTime } from '../../lib/plant-time';
import { useEditor } from '../../lib/editor-state';
import './faults.css';

/**
 * /fault-detail/{ariza_id}: the fault's details, status/assignee/root cause/resolution, comment thread,
 * status history, the alarm it came from and, with a signal, its chart around the alarm time. An unknown
 * or unreachable id shows the not-found page.
 */
export default function FaultDetailPage() {
  const { t, i18n } = useTranslation();
  const { faultId } = useParams();
  const id = Number(faultId);
  const valid = Number.isInteger(id) && id > 0;
  const query = useFault(id);
  const can = useCan('fault');
  const faultText = useFaultText();
  const editor = useEditor<FaultDetail>();

  if (!valid || (query.error instanceof ApiError && query.error.status === 404)) return <NotFoundPage />;
  if (query.error)
    return <Alert type="error" showIcon title={errorMessageOf(query.error, t)} data-testid="fault-error" />;
  const fault = query.data;
  if (!fault) return <Spin className="fault-detail-spin" />;

  const text = faultText(fault);
  const alarmIds =
    fault.alarm_ids.length > 0 ? fault.alarm_ids : fault.alarm_id !== null ? [fault.alarm_id] : [];
  // On the plant's clock, named when the reader's differs (lib/plant-time.ts).
  const date = (v: string | null) => formatPlantTime(v, fault.plant_time_zone, i18n.language) || '—';
  const items = [
    { key: 'plant', label: t('faults.page.plant'), children: fault.plant_name },
    { key: 'device', label: t('faults.page.device'), children: fault.device_name ?? '—' },
    {
      key: 'priority',
      label: t('faults.page.priority'),
      children: <PriorityTag priority={fault.priority_id} />,
    },
    {
      key: 'assignee',
      label: t('faults.page.assignee'),
      children: fault.assignee_name ?? t('faults.page.unassigned'),
    },
    { key: 'detected', label: t('faults.page.detectedAt'), children: date(fault.detected_at) },
    { key: 'acknowledged', label: t('faults.page.acknowledgedAt'), children: date(fault.acknowledged_at) },
    { key: 'resolved', label: t('faults.page.resolvedAt'), children: date(fault.resolved_at) },
    { key: 'closed', label: t('faults.page.closedAt'), children: date(fault.closed_at) },
    {
      key: 'tta',
      label: t('faults.page.tta'),
      children: <span data-testid="fault-tta">{formatDuration(fault.time_to_acknowledge_s, t) || '—'}</span>,
    },
    {
      key: 'ttr',
      label: t('faults.page.ttr'),
      children: <span data-testid="fault-ttr">{formatDuration(fault.time_to_repair_s, t) || '—'}</span>,
    },
    {
      key: 'alarm',
      // One fault covers an event: its own alarm and those that followed it (docs/architecture.md, "Alarm groups").
      label: alarmIds.length > 1 ? t('faults.page.alarmsOfEvent') : t('faults.page.alarm'),
      children:
        alarmIds.length === 0 ? (
          t('faults.page.manual')
        ) : (
          <Space size={[8, 0]} wrap data-testid="fault-alarms" data-count={alarmIds.length}>
            {alarmIds.map((alarmId) => (
              <Link
                key={alarmId}
                to={`/alarms?alarm_id=${alarmId}`}
                data-testid={`fault-alarm-link-${alarmId}`}
              >
                {t('faults.page.alarmLink', { id: alarmId })}
              </Link>
            ))}
          </Space>
        ),
    },
    {
      key: 'description',
      label: t('faults.page.description'),
      span: 'filled' as const,
      children: <span className="fault-pre">{text.description ?? '—'}</span>,
    },
  ];

  return (
    <div className="fault-detail" data-testid="fault-detail-page">
      <Card
        title={
          <Space wrap>
            <Link to="/fault" aria-label={t('common.back')} data-testid="fault-back">
              <ArrowLeftOutlined />
            </Link>
            <span data-testid="fault-title">
              #{fault.id} · {text.title}
            </span>
            <StatusTag status={fault.status} />
          </Space>
        }
        extra={
          can.update && (
            <Button icon={<EditOutlined />} onClick={() => editor.openEdit(fault)} data-testid="fault-edit">
              {t('faults.page.edit')}
            </Button>
          )
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} items={items} />
      </Card>
      {fault.tag_id !== null && (
        <FaultChart signalId={fault.tag_id} detectedAt={fault.detected_at} timeZone={fault.plant_time_zone} />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card title={t('faults.page.work')}>
            <FaultWorkForm key={fault.updated_at} fault={fault} disabled={!can.update} />
          </Card>
          <Card title={t('faults.page.history')} className="fault-history-card">
            <Timeline
              data-testid="fault-history"
              items={fault.history.map((h) => ({
                key: h.id,
                color: STATUS_COLORS[h.to_status] === 'processing' ? 'blue' : STATUS_COLORS[h.to_status],
                title: date(h.at),
                content: (
                  <span data-testid="fault-history-entry">
                    {h.from_status
                      ? t('faults.page.changed', {
                          from: t(`faults.status.${h.from_status}`),
                          to: t(`faults.status.${h.to_status}`),
                        })
                      : t('faults.page.createdAs', { to: t(`faults.status.${h.to_status}`) })}
                    {h.user_name ? ` · ${h.user_name}` : ''}
                  </span>
                ),
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card title={t('faults.page.comments')}>
            <FaultComments
              faultId={fault.id}
              comments={fault.comments}
              canComment={can.update}
              timeZone={fault.plant_time_zone}
            />
          </Card>
        </Col>
      </Row>
      {/* The fault as it is now (the stream may have moved it since the drawer opened). */}
      {editor.record && (
        <FaultForm key={editor.session} open={editor.open} onClose={editor.close} fault={fault} />
      )}
    </div>
  );
}
