import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry, AuditListQuery } from '@solar/shared';
import { errorMessageOf } from '../../../lib/api-errors';
import { withQuery } from '../../../lib/list-query';
import { notify } from '../../../lib/notify';
import { useAudit } from '../api/audit';
import { downloadFile } from '../api/download';
import { dateBounds } from '../../../lib/date-bounds';

interface Filters {
  user_id?: string;
  entity?: string;
  action?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** The audit log with its filters (user id, entity, action, date range) and the CSV of what they select. */
export function AuditLog() {
  const { t, i18n } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [exporting, setExporting] = useState(false);
  const filter: Omit<AuditListQuery, 'page' | 'pageSize'> = {
    user_id: filters.user_id?.trim() || undefined,
    entity: filters.entity?.trim() || undefined,
    action: filters.action?.trim() || undefined,
    from: filters.range?.[0]?.startOf('day').toISOString(),
    to: filters.range?.[1]?.endOf('day').toISOString(),
  };
  const query = useAudit({ ...filter, ...page });
  const set = (change: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setPage((p) => ({ ...p, page: 1 }));
  };
  const onExport = async () => {
    setExporting(true);
    try {
      await downloadFile(withQuery('admin/audit/export', filter));
    } catch (e) {
      notify.error(errorMessageOf(e, t));
    } finally {
      setExporting(false);
    }
  };

  const columns: ColumnsType<AuditEntry> = [
    {
      key: 'at',
      dataIndex: 'at',
      title: t('admin.audit.at'),
      render: (at: string) => new Date(at).toLocaleString(i18n.language.replace('_', '-')),
    },
    {
      key: 'user',
      title: t('admin.audit.user'),
      render: (_, e) => (e.user_id === null ? '—' : `${e.user_name ?? ''} (#${e.user_id})`),
    },
    { key: 'action', dataIndex: 'action', title: t('admin.audit.action') },
    {
      key: 'entity',
      title: t('admin.audit.entity'),
      render: (_, e) => (e.entity_id === null ? e.entity : `${e.entity} #${e.entity_id}`),
    },
    { key: 'ip', dataIndex: 'ip', title: t('admin.audit.ip'), responsive: ['md'] },
    {
      key: 'change',
      title: t('admin.audit.change'),
      responsive: ['lg'],
      render: (_, e) => (
        <Typography.Text code ellipsis={{ tooltip: true }} style={{ maxWidth: 360 }}>
          {json(e.after ?? e.before)}
        </Typography.Text>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Input
          allowClear
          data-testid="audit-filter-user"
          placeholder={t('admin.audit.userId')}
          inputMode="numeric"
          style={{ width: 120 }}
          onChange={(e) => set({ user_id: e.target.value })}
        />
        <Input
          allowClear
          data-testid="audit-filter-entity"
          placeholder={t('admin.audit.entity')}
          style={{ width: 160 }}
          onChange={(e) => set({ entity: e.target.value })}
        />
        <Input
          allowClear
          data-testid="audit-filter-action"
          placeholder={t('admin.audit.action')}
          style={{ width: 140 }}
          onChange={(e) => set({ action: e.target.value })}
        />
        <DatePicker.RangePicker {...dateBounds} onChange={(range) => set({ range })} />
        <Button onClick={() => void onExport()} loading={exporting} data-testid="audit-export">
          {t('admin.audit.exportCsv')}
        </Button>
      </Space>
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        data-testid="audit-table"
        columns={columns}
        dataSource={query.data?.items}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (e) => (
            <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {t('admin.audit.before')}: {json(e.before)}
              {'\n'}
              {t('admin.audit.after')}: {json(e.after)}
            </pre>
          ),
        }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: query.data?.total ?? 0,
          onChange: (p, size) => setPage({ page: p, pageSize: size }),
        }}
      />
    </Space>
  );
}
