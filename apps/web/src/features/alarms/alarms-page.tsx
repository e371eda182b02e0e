import { useMemo, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import notification from 'antd/es/notification';
import Pagination from 'antd/es/pagination';
import Popconfirm from 'antd/es/popconfirm';
import Segmented from 'antd/es/segmented';
import Flex from 'antd/es/flex';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import CheckOutlined from '@ant-design/icons/CheckOutlined';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import ToolOutlined from '@ant-design/icons/ToolOutlined';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  ALARM_STATUS,
  alarmStatusName,
  isAlarmActive,
  type AlarmRecord,
  type AlarmStatusId,
} from '@solar/shared';
import { PHONE_QUERY, useMediaQuery } from '../../lib/media-query';
import { useCan } from '../../lib/permissions';
import { useLiveAlarmList } from './api/alarm-events';
import { useDecideAlarm } from './api/decide-alarm';
import { useAlarms } from './api/get-alarms';
import {
  AlarmDuration,
  PriorityTag,
  STATUS_COLORS,
  StateTag,
  useAlarmText,
  useNow,
} from './components/alarm-parts';
import { nestUnderCauses, type AlarmRow } from './alarm-groups';
import { AlarmGroupTag } from './components/alarm-group-tag';
import './alarms.css';
import { PlantTime } from '../../lib/plant-time-view';

/**
 * The tabs: `active` holds every alarm whose condition still holds, acknowledged or not (the one count
 * the header badge and the other pages show); the decided and cleared tabs filter by status_id.
 */
type StatusFilter = 'active' | AlarmStatusId | 'all';
const DECISION_TABS = [ALARM_STATUS.approved, ALARM_STATUS.rejected, ALARM_STATUS.cleared] as const;
/** Cards per page on a phone. */
const PHONE_CARDS = 20;

const inTab = (a: AlarmRecord, tab: StatusFilter) =>
  tab === 'all' ? true : tab === 'active' ? isAlarmActive(a) : a.status_id === tab;

/** An alarm not yet decided (active, or cleared by itself) may still be approved or rejected. */
const undecided = (a: AlarmRecord) =>
  a.status_id === ALARM_STATUS.active || a.status_id === ALARM_STATUS.cleared;

/**
 * /alarms: the alarms in scope by tab (active, decided, cleared, all) with counts, kept current by the live
 * stream. Users who may update alarms approve them (converting them to faults) or reject them; an approved
 * alarm stays active until its condition clears. A table on wide screens, cards on a phone.
 */
export default function AlarmsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan('alarm');
  const canSeeSignals = useCan('device_signals').view;
  const canSeeFaults = useCan('report').view;
  const phone = useMediaQuery(PHONE_QUERY);
  const [tab, setTab] = useState<StatusFilter>('active');
  const [cardPage, setCardPage] = useState(1);
  const query = useAlarms();
  const live = useLiveAlarmList();
  const decide = useDecideAlarm();
  const text = useAlarmText();
  const [notices, noticeHolder] = notification.useNotification({ placement: 'topRight' });
  const alarms = useMemo(() => query.data ?? [], [query.data]);
  const anyActive = alarms.some(isAlarmActive);
  const now = useNow(1000, anyActive);

  const counts = useMemo(() => {
    const byTab = new Map<StatusFilter, number>();
    for (const tabId of ['active', ...DECISION_TABS] as const)
      byTab.set(tabId, alarms.filter((a) => inTab(a, tabId)).length);
    return byTab;
  }, [alarms]);
  const listed = useMemo(() => alarms.filter((a) => inTab(a, tab)), [alarms, tab]);
  const rows = useMemo(() => nestUnderCauses(listed), [listed]);
  /** Undecided consequences by cause: approving the cause approves them into its fault too. */
  const undecidedFollowers = useMemo(() => {
    const byCause = new Map<number, number>();
    for (const c of alarms)
      if (c.cause_alarm_id !== null && undecided(c))
        byCause.set(c.cause_alarm_id, (byCause.get(c.cause_alarm_id) ?? 0) + 1);
    return byCause;
  }, [alarms]);
  const followers = (a: AlarmRecord) => undecidedFollowers.get(a.id) ?? 0;

  const pending = (id: number) => decide.isPending && decide.variables?.id === id;
  const openFault = (faultId: number) => void navigate(`/fault-detail/${faultId}`);

  /** Approve, then say which fault was opened and link to it. */
  const approve = async (a: AlarmRecord) => {
    const answer = await decide.mutateAsync({ id: a.id, decision: 'approve' }).catch(() => undefined);
    if (!answer || answer.fault_id === null) return;
    const faultId = answer.fault_id;
    notices.success({
      key: `fault-opened-${faultId}`,
      message: <span data-testid="fault-opened-title">{t('alarms.page.faultOpened', { id: faultId })}</span>,
      description: (
        <span data-testid="fault-opened-notice">
          {a.device_name ? `${a.device_name}: ` : `${a.plant_name}: `}
          {text(a)}
        </span>
      ),
      btn: canSeeFaults ? (
        <Link
          to={`/fault-detail/${faultId}`}
          data-testid="fault-opened-link"
          onClick={() => notices.destroy(`fault-opened-${faultId}`)}
        >
          {t('alarms.page.openFault')}
        </Link>
      ) : undefined,
    });
  };

  const deviceCell = (a: AlarmRecord) =>
    a.device_id === null ? (
      <Typography.Text type="secondary">—</Typography.Text>
    ) : canSeeSignals ? (
      <Link
        to={`/signals/${a.device_id}`}
        title={t('alarms.page.openDevice')}
        data-testid={`alarm-device-${a.id}`}
      >
        {a.device_name}
      </Link>
    ) : (
      a.device_name
    );

  const groupTag = (a: AlarmRow) => <AlarmGroupTag alarm={a} />;

  /** The alarm's state and decision; on a card also its place in its event (the table shows it by the plant). */
  const stateCell = (a: AlarmRow, withGroup = false) => (
    <Space size={4} wrap>
      <StateTag alarm={a} />
      {withGroup && groupTag(a)}
      {a.status_id !== ALARM_STATUS.active && a.status_id !== ALARM_STATUS.cleared && (
        <Tag
          color={STATUS_COLORS[a.status_id]}
          data-testid={`alarm-status-${a.id}`}
          data-status={a.status_id}
        >
          {t(`alarms.status.${alarmStatusName(a.status_id as AlarmStatusId)}`)}
        </Tag>
      )}
    </Space>
  );

  /** What can be done with the alarm: decide it, or open the fault it became. */
  const actionsCell = (a: AlarmRecord): ReactNode => {
    if (a.fault_id !== null)
      return canSeeFaults ? (
        <Button
          size="small"
          icon={<ToolOutlined />}
          onClick={() => openFault(a.fault_id!)}
          data-testid={`alarm-fault-${a.id}`}
        >
          {t('alarms.page.openFault')}
        </Button>
      ) : null;
    if (!can.update || !undecided(a)) return null;
    return (
      <Space size={4} wrap>
        <Popconfirm
          title={t('alarms.page.approveTitle')}
          description={
            followers(a) > 0 ? (
              <span data-testid={`alarm-approve-group-${a.id}`}>
                {t('alarms.page.approveConfirm')} {t('alarms.page.approveGroup', { n: followers(a) })}
              </span>
            ) : (
              t('alarms.page.approveConfirm')
            )
          }
          okText={t('alarms.page.approve')}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': `alarm-approve-ok-${a.id}` }}
          onConfirm={() => approve(a)}
        >
          <Button
            size="small"
            type="primary"
            icon={<CheckOutlined />}
            loading={pending(a.id) && decide.variables?.decision === 'approve'}
            data-testid={`alarm-approve-${a.id}`}
          >
            {t('alarms.page.approve')}
          </Button>
        </Popconfirm>
        <Popconfirm
          title={t('alarms.page.rejectTitle')}
          description={t('alarms.page.rejectConfirm')}
          okText={t('alarms.page.reject')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, 'data-testid': `alarm-reject-ok-${a.id}` }}
          onConfirm={() => decide.mutateAsync({ id: a.id, decision: 'reject' }).catch(() => undefined)}
        >
          <Button
            size="small"
            danger
            icon={<CloseOutlined />}
            loading={pending(a.id) && decide.variables?.decision === 'reject'}
            data-testid={`alarm-reject-${a.id}`}
          >
            {t('alarms.page.reject')}
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  const columns: ColumnsType<AlarmRow> = [
    {
      key: 'plant',
      title: t('alarms.page.plant'),
      // Room for the expander of a cause (and the indent of the alarms under it) beside the plant's name.
      width: 150,
      render: (_, a) => (
        <Space direction="vertical" size={2}>
          <span>{a.plant_name}</span>
          {groupTag(a)}
        </Space>
      ),
    },
    { key: 'device', title: t('alarms.page.device'), width: 120, render: (_, a) => deviceCell(a) },
    {
      key: 'priority',
      dataIndex: 'priority_id',
      title: t('alarms.page.priority'),
      width: 110,
      render: (p: number) => <PriorityTag priority={p} />,
      sorter: (a, b) => a.priority_id - b.priority_id,
    },
    {
      key: 'message',
      title: t('alarms.page.message'),
      width: 300,
      ellipsis: { showTitle: true },
      render: (_, a) => <span data-testid={`alarm-message-${a.id}`}>{text(a)}</span>,
    },
    {
      key: 'started_at',
      dataIndex: 'started_at',
      title: t('alarms.page.startLocal'),
      // Room for the time and its two-word header, which an equal share of the fixed layout broke mid-word.
      width: 190,
      // Each row on its own plant's clock: the list mixes plants of several zones.
      render: (iso: string, a) => (
        <PlantTime
          at={iso}
          zone={a.plant_time_zone}
          style="dateTimeSeconds"
          testId={`alarm-started-${a.id}`}
        />
      ),
      sorter: (a, b) => Date.parse(a.started_at) - Date.parse(b.started_at),
    },
    {
      key: 'duration',
      title: t('alarms.page.duration'),
      width: 120,
      render: (_, a) => <AlarmDuration alarm={a} now={now} />,
    },
    { key: 'state', title: t('alarms.page.status'), width: 210, render: (_, a) => stateCell(a) },
  ];
  if (can.update || canSeeFaults)
    columns.push({
      key: 'actions',
      title: t('management.actions'),
      align: 'right',
      // Wide enough for both decision buttons or "open fault" in every language, so no control spills
      // over its cell (a click beside it would land on the empty cell).
      width: 230,
      fixed: 'right',
      className: 'alarm-actions-cell',
      render: (_, a) => actionsCell(a),
    });

  const options = [
    {
      value: 'active' as StatusFilter,
      label: (
        <span data-testid="alarm-filter-active" data-count={counts.get('active') ?? 0}>
          {t('alarms.status.active')} ({counts.get('active') ?? 0})
        </span>
      ),
    },
    ...DECISION_TABS.map((id) => ({
      value: id,
      label: (
        <span data-testid={`alarm-filter-${alarmStatusName(id)}`}>
          {t(`alarms.status.${alarmStatusName(id)}`)} ({counts.get(id) ?? 0})
        </span>
      ),
    })),
    {
      value: 'all' as StatusFilter,
      label: (
        <span data-testid="alarm-filter-all">
          {t('alarms.page.all')} ({alarms.length})
        </span>
      ),
    },
  ];
  // The count stays a count of alarms (the badge's); the events they make are said beside it.
  const summary =
    listed.length > rows.length ? (
      <Typography.Text
        type="secondary"
        data-testid="alarm-group-summary"
        data-alarms={listed.length}
        data-events={rows.length}
      >
        {t('alarms.page.groupSummary', { alarms: listed.length, events: rows.length })}
      </Typography.Text>
    ) : null;

  const empty = (
    <Empty
      data-testid="alarm-empty"
      description={query.isError ? t('alarms.page.loadFailed') : t('alarms.page.empty')}
    />
  );

  return (
    <Card data-testid="alarms-page" data-live-status={live}>
      {noticeHolder}
      <Flex vertical gap={16}>
        <Segmented<StatusFilter>
          options={options}
          value={tab}
          onChange={(next) => {
            setTab(next);
            setCardPage(1);
          }}
          data-testid="alarm-status-filter"
          className="alarm-tabs"
        />
        {summary}
        {phone ? (
          rows.length === 0 && !query.isPending ? (
            empty
          ) : (
            <ul className="alarm-cards" data-testid="alarm-cards">
              {rows.slice((cardPage - 1) * PHONE_CARDS, cardPage * PHONE_CARDS).map((a) => (
                <li key={a.id}>
                  <Card
                    size="small"
                    data-testid={`alarm-card-${a.id}`}
                    title={
                      <Space size={4} wrap>
                        <PriorityTag priority={a.priority_id} />
                        <span>{a.plant_name}</span>
                      </Space>
                    }
                  >
                    <p className="alarm-card-message" data-testid={`alarm-message-${a.id}`}>
                      {a.device_name ? `${a.device_name}: ` : ''}
                      {text(a)}
                    </p>
                    <dl className="alarm-card-figures">
                      <dt>{t('alarms.page.startLocal')}</dt>
                      <dd className="mono">
                        <PlantTime at={a.started_at} zone={a.plant_time_zone} style="dateTimeSeconds" />
                      </dd>
                      <dt>{t('alarms.page.duration')}</dt>
                      <dd>
                        <AlarmDuration alarm={a} now={now} />
                      </dd>
                      <dt>{t('alarms.page.status')}</dt>
                      <dd>{stateCell(a, !a.children)}</dd>
                    </dl>
                    <div className="alarm-card-actions">{actionsCell(a)}</div>
                    {a.children && (
                      <section
                        className="alarm-card-consequences"
                        data-testid={`alarm-card-consequences-${a.id}`}
                      >
                        <Typography.Text type="secondary">
                          {t('alarms.page.consequenceCount', { n: a.children.length })}
                        </Typography.Text>
                        <ul>
                          {a.children.map((c) => (
                            <li key={c.id} data-testid={`alarm-card-consequence-${c.id}`}>
                              <p className="alarm-card-message" data-testid={`alarm-message-${c.id}`}>
                                <PriorityTag priority={c.priority_id} />
                                {c.device_name ? `${c.device_name}: ` : ''}
                                {text(c)}
                              </p>
                              <Flex wrap gap={4} justify="space-between" align="center">
                                <PlantTime
                                  at={c.started_at}
                                  zone={c.plant_time_zone}
                                  style="dateTimeSeconds"
                                />
                                {stateCell(c)}
                              </Flex>
                              <div className="alarm-card-actions">{actionsCell(c)}</div>
                            </li>
                          ))}
                        </ul>
                      </section>
                    )}
                  </Card>
                </li>
              ))}
            </ul>
          )
        ) : null}
        {phone && rows.length > PHONE_CARDS && (
          <Pagination
            simple
            size="small"
            align="center"
            current={cardPage}
            pageSize={PHONE_CARDS}
            total={rows.length}
            onChange={setCardPage}
            data-testid="alarm-cards-pages"
          />
        )}
        {phone ? null : (
          <Table<AlarmRow>
            rowKey="id"
            data-testid="alarm-table"
            columns={columns}
            dataSource={rows}
            loading={query.isPending}
            // The columns' widths: the plant's holds a cause's expander and the indent of its consequences.
            scroll={{ x: 1430 }}
            locale={{ emptyText: empty }}
            pagination={{
              defaultPageSize: 20,
              showSizeChanger: true,
              // Alarms, not the events the pages hold (a consequence is a row under its cause).
              showTotal: () => t('management.total', { total: listed.length }),
            }}
          />
        )}
      </Flex>
    </Card>
  );
}
