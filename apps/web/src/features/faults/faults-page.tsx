import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FAULT_PRIORITY_IDS, FAULT_STATUSES, type Fault, type FaultStatus } from '@solar/shared';
import { ManagementCard, RowActions } from '../../components';
import { useEditor } from '../../lib/editor-state';
import { sortOrderOf } from '../../lib/list-query';
import { useListState } from '../../lib/list-state';
import { useCan } from '../../lib/permissions';
import { useCatalogPlants } from '../telemetry';
import { useAssignees } from '../users';
import { useDeleteFault } from './api/delete-fault';
import { useFaults } from './api/get-faults';
import { FaultForm } from './components/fault-form';
import { PriorityTag, StatusTag } from './components/fault-tags';
import { useFaultText } from './fault-title';
import { formatDuration, priorityKey } from './format';
import { PlantTime } from '../../lib/plant-time-view';
import './faults.css';
import { dateBounds } from '../../lib/date-bounds';

interface Filters {
  status: FaultStatus | undefined;
  plantId: number | undefined;
  priorityId: number | undefined;
  assigneeId: number | undefined;
  range: [Dayjs, Dayjs] | null;
}

/**
 * Cells whose text must not break (a device name such as INV-01, a date, a duration); the title,
 * plant and assignee wrap instead, so that the row fits the page at desktop width.
 */
const oneLine = () => ({ className: 'cell-one-line' });

/** /fault: the faults in reach with filters, server-side paging and sorting, and a "new fault" drawer. */
export default function FaultsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan('fault');
  const canSeeUsers = useCan('user_management').view;
  const list = useListState<Filters>('-created_at', {
    status: undefined,
    plantId: undefined,
    priorityId: undefined,
    assigneeId: undefined,
    range: null,
  });
  const { state } = list;
  const { range } = state.filters;
  const query = useFaults({
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort as never,
    q: state.q || undefined,
    status: state.filters.status,
    plant_id: state.filters.plantId,
    priority_id: state.filters.priorityId,
    assignee_user_id: state.filters.assigneeId,
    from: range ? range[0].startOf('day').toISOString() : undefined,
    to: range ? range[1].add(1, 'day').startOf('day').toISOString() : undefined,
  });
  const plants = useCatalogPlants();
  const assignees = useAssignees(canSeeUsers);
  const remove = useDeleteFault();
  const editor = useEditor<Fault>();
  const faultText = useFaultText();

  const sortable = (column: string) => ({ sorter: true, sortOrder: sortOrderOf(state.sort, column) });
  const columns: ColumnsType<Fault> = [
    { key: 'id', dataIndex: 'id', title: '#', width: 72, ...sortable('id') },
    {
      key: 'title',
      dataIndex: 'title',
      title: t('faults.page.title'),
      render: (_: string, fault: Fault) => faultText(fault).title,
      ...sortable('title'),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('faults.page.status'),
      render: (status: FaultStatus) => <StatusTag status={status} />,
      ...sortable('status'),
    },
    {
      key: 'priority_id',
      dataIndex: 'priority_id',
      title: t('faults.page.priority'),
      render: (p: number) => <PriorityTag priority={p} />,
      ...sortable('priority_id'),
    },
    { key: 'plant_name', dataIndex: 'plant_name', title: t('faults.page.plant'), ...sortable('plant_name') },
    {
      key: 'device_name',
      dataIndex: 'device_name',
      title: t('faults.page.device'),
      responsive: ['lg'],
      onCell: oneLine,
    },
    {
      key: 'assignee_name',
      dataIndex: 'assignee_name',
      title: t('faults.page.assignee'),
      responsive: ['md'],
      render: (name: string | null) => name ?? t('faults.page.unassigned'),
    },
    {
      key: 'detected_at',
      dataIndex: 'detected_at',
      title: t('faults.page.detectedAt'),
      // Each row on its own plant's clock: the list mixes plants of several zones. The zone's name, when
      // shown, takes a second line (PlantTime keeps each part whole).
      render: (v: string, fault: Fault) => (
        <PlantTime at={v} zone={fault.plant_time_zone} testId={`fault-detected-${fault.id}`} />
      ),
      ...sortable('detected_at'),
    },
    {
      key: 'tta',
      dataIndex: 'time_to_acknowledge_s',
      title: t('faults.page.tta'),
      onCell: oneLine,
      align: 'right',
      render: (v: number | null) => formatDuration(v, t),
    },
    {
      key: 'ttr',
      dataIndex: 'time_to_repair_s',
      title: t('faults.page.ttr'),
      onCell: oneLine,
      align: 'right',
      render: (v: number | null) => formatDuration(v, t),
    },
    ...(can.delete
      ? [
          {
            key: 'actions',
            fixed: 'right' as const,
            title: t('management.actions'),
            align: 'right' as const,
            render: (_: unknown, fault: Fault) => (
              // Clicks on the actions must not open the row.
              <span onClick={(e) => e.stopPropagation()}>
                <RowActions resource="fault" id={fault.id} onDelete={() => remove.mutate(fault.id)} />
              </span>
            ),
          },
        ]
      : []),
  ];

  return (
    <ManagementCard
      resource="fault"
      onSearch={list.setSearch}
      createLabel={t('faults.page.create')}
      onCreate={can.create ? editor.openCreate : undefined}
      filters={
        <>
          <Select<FaultStatus>
            allowClear
            placeholder={t('management.allStatuses')}
            options={FAULT_STATUSES.map((s) => ({ value: s, label: t(`faults.status.${s}`) }))}
            value={state.filters.status}
            onChange={(v) => list.setFilter('status', v)}
            className="management-filter"
            aria-label={t('management.allStatuses')}
            data-testid="fault-filter-status"
          />
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('faults.page.allPlants')}
            options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={state.filters.plantId}
            onChange={(v) => list.setFilter('plantId', v)}
            className="management-filter-wide"
            aria-label={t('faults.page.allPlants')}
            data-testid="fault-filter-plant"
          />
          <Select<number>
            allowClear
            placeholder={t('faults.page.allPriorities')}
            options={FAULT_PRIORITY_IDS.map((p) => ({ value: p, label: t(priorityKey(p)) }))}
            value={state.filters.priorityId}
            onChange={(v) => list.setFilter('priorityId', v)}
            className="management-filter"
            aria-label={t('faults.page.allPriorities')}
            data-testid="fault-filter-priority"
          />
          {canSeeUsers && (
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('faults.page.allAssignees')}
              options={(assignees.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
              value={state.filters.assigneeId}
              onChange={(v) => list.setFilter('assigneeId', v)}
              className="management-filter-wide"
              aria-label={t('faults.page.allAssignees')}
              data-testid="fault-filter-assignee"
            />
          )}
          <DatePicker.RangePicker
            {...dateBounds}
            value={range}
            onChange={(v) => list.setFilter('range', v?.[0] && v[1] ? [v[0], v[1]] : null)}
            aria-label={t('faults.page.dateRange')}
            data-testid="fault-filter-range"
          />
        </>
      }
    >
      <Table<Fault>
        rowKey="id"
        data-testid="fault-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        // Wide enough for its content only where the page is narrower than that: at desktop width the long
        // texts (title, plant, assignee) wrap so that the times and actions stay in view; a phone scrolls.
        scroll={{ x: true }}
        tableLayout="auto"
        rowClassName={() => 'clickable-row'}
        onRow={(fault) => ({
          onClick: () => void navigate(`/fault-detail/${fault.id}`),
          'data-testid': `fault-row-${fault.id}`,
        })}
        {...list.tableProps(query.data?.total)}
      />
      <FaultForm key={editor.session} open={editor.open} onClose={editor.close} />
    </ManagementCard>
  );
}
