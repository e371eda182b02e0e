import { useMemo, useState } from 'react';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type { CustomAlarm } from '@solar/shared';
import { ManagementCard, RowActions } from '../../components';
import { formatNumber } from '../../lib/format';
import { useEditor } from '../../lib/editor-state';
import { useCan } from '../../lib/permissions';
import { useDeleteCustomAlarm } from './api/delete-custom-alarm';
import { useCustomAlarms } from './api/get-custom-alarms';
import { bodyOf, useSaveCustomAlarm } from './api/save-custom-alarm';
import { CustomAlarmForm } from './components/custom-alarm-form';
import { priorityKey } from '../alarms';
import { formatInZone, zoneLabel } from '../../lib/plant-time';
import { signalName } from '../../lib/signal-name';

/** Tag colour of each priority: 1 low … 4 high and dangerous. */
const PRIORITY_COLORS: Record<number, string> = { 1: 'blue', 2: 'gold', 3: 'orange', 4: 'red' };

/**
 * The rule's active window on the plant's clock, the zone named once after both ends when the browser's
 * clock reads otherwise at either; an open end is "…".
 */
function windowText(rule: CustomAlarm, language: string): string {
  const zone = rule.plant_time_zone;
  const ends = [rule.started_at, rule.end_at];
  const [from, to] = ends.map((at) => (at ? formatInZone(at, zone, language) : '…'));
  const label = zoneLabel(
    zone,
    ends.filter((at): at is string => at !== null).map((at) => Date.parse(at)),
  );
  return `${from} – ${to}${label ? ` (${label})` : ''}`;
}

/** The rule's signal in the interface language (standard names from the catalogue, others as named). */
const tagName = (r: Pick<CustomAlarm, 'tag_key' | 'tag_name'>) =>
  signalName({ key: r.tag_key, name: r.tag_name });

/**
 * /customized-alarms: the custom alarm rules with their signal, condition, priority, active window and
 * delays; the active switch saves at once; create/edit in a drawer, delete with confirmation.
 */
export default function CustomizedAlarmsPage() {
  const { t, i18n } = useTranslation();
  const can = useCan('dashboard');
  const query = useCustomAlarms();
  const remove = useDeleteCustomAlarm();
  const toggle = useSaveCustomAlarm();
  const editor = useEditor<CustomAlarm>();
  const [search, setSearch] = useState('');

  const rows = useMemo(() => {
    const q = search.toLocaleLowerCase(i18n.language.replace('_', '-'));
    return (query.data ?? []).filter(
      (r) =>
        !q ||
        [r.name, tagName(r), r.description ?? ''].some((v) =>
          v.toLocaleLowerCase(i18n.language.replace('_', '-')).includes(q),
        ),
    );
  }, [query.data, search, i18n.language]);

  const columns: ColumnsType<CustomAlarm> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('customAlarms.name'),
      sorter: (a, b) => a.name.localeCompare(b.name),
    },
    {
      key: 'tag_name',
      dataIndex: 'tag_name',
      title: t('customAlarms.tag'),
      render: (_: string, r: CustomAlarm) => tagName(r),
      sorter: (a, b) => tagName(a).localeCompare(tagName(b)),
    },
    {
      key: 'condition',
      title: t('customAlarms.condition'),
      render: (_, r) => (
        <span className="mono" data-testid={`custom-alarm-condition-${r.id}`}>
          {r.operant} {formatNumber(r.value, i18n.language, 6)}
          {r.unit ? ` ${r.unit}` : ''}
        </span>
      ),
    },
    {
      key: 'priority_id',
      dataIndex: 'priority_id',
      title: t('customAlarms.priority'),
      sorter: (a, b) => a.priority_id - b.priority_id,
      render: (p: number) => <Tag color={PRIORITY_COLORS[p] ?? 'default'}>{t(priorityKey(p))}</Tag>,
    },
    {
      key: 'window',
      title: t('customAlarms.window'),
      responsive: ['lg'],
      render: (_, r) =>
        r.started_at || r.end_at ? (
          <span data-testid="custom-alarm-window">{windowText(r, i18n.language)}</span>
        ) : (
          t('customAlarms.always')
        ),
    },
    {
      key: 'delays',
      title: t('customAlarms.delays'),
      responsive: ['md'],
      render: (_, r) =>
        t('customAlarms.delaysText', {
          on: r.on_delay_s,
          off: r.off_delay_s,
          hysteresis: formatNumber(r.hysteresis, i18n.language, 6),
        }),
    },
    {
      key: 'is_active',
      dataIndex: 'is_active',
      title: t('management.active'),
      render: (active: boolean, r) => (
        <Switch
          checked={active}
          disabled={!can.update}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(checked) => toggle.mutate({ id: r.id, body: { ...bodyOf(r), is_active: checked } })}
          aria-label={t('management.active')}
          data-testid={`custom-alarm-active-${r.id}`}
        />
      ),
    },
    {
      key: 'actions',
      fixed: 'right',
      title: t('management.actions'),
      align: 'right',
      render: (_, r) => (
        <RowActions
          resource="custom-alarm"
          id={r.id}
          onEdit={can.update ? () => editor.openEdit(r) : undefined}
          onDelete={can.delete ? () => remove.mutate(r.id) : undefined}
        />
      ),
    },
  ];

  return (
    <ManagementCard
      resource="custom-alarm"
      onSearch={setSearch}
      createLabel={t('customAlarms.create')}
      onCreate={can.create ? editor.openCreate : undefined}
    >
      <Table<CustomAlarm>
        rowKey="id"
        data-testid="custom-alarm-table"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{ showSizeChanger: true, showTotal: (total) => t('management.total', { total }) }}
      />
      <CustomAlarmForm key={editor.session} open={editor.open} rule={editor.record} onClose={editor.close} />
    </ManagementCard>
  );
}
