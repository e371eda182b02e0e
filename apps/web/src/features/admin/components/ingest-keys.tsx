import Popconfirm from 'antd/es/popconfirm';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { AdminIngestKey } from '@solar/shared';
import { useCan } from '../../../lib/permissions';
import { useIngestKeys, useRevokeIngestKey } from '../api/fleet';

/** The fleet's live ingest keys (prefix only) and their revocation. */
export function IngestKeys() {
  const { t, i18n } = useTranslation();
  const can = useCan('admin_panel');
  const query = useIngestKeys();
  const revoke = useRevokeIngestKey();
  const locale = i18n.language.replace('_', '-');
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : t('admin.keys.never'));

  const columns: ColumnsType<AdminIngestKey> = [
    { key: 'prefix', title: t('admin.keys.prefix'), render: (_, k) => <code>{k.prefix}…</code> },
    {
      key: 'owner',
      title: t('admin.keys.owner'),
      render: (_, k) =>
        k.owner === 'device' ? `${k.device_name ?? ''} · ${k.plant_name ?? ''}` : k.plant_name,
    },
    {
      key: 'kind',
      title: t('admin.keys.kind'),
      render: (_, k) => t(`admin.keys.kinds.${k.owner}`),
      responsive: ['md'],
    },
    { key: 'created_at', title: t('admin.keys.created'), render: (_, k) => when(k.created_at) },
    { key: 'last_used_at', title: t('admin.keys.lastUsed'), render: (_, k) => when(k.last_used_at) },
    {
      key: 'actions',
      title: t('management.actions'),
      align: 'right',
      render: (_, k) =>
        can.delete && (
          <Popconfirm
            title={t('admin.keys.revokeConfirm', { prefix: k.prefix })}
            okText={t('admin.keys.revoke')}
            cancelText={t('common.cancel')}
            onConfirm={() => revoke.mutate(k.id)}
          >
            <Button danger size="small" data-testid={`revoke-key-${k.id}`}>
              {t('admin.keys.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Table<AdminIngestKey>
      rowKey="id"
      size="small"
      data-testid="keys-table"
      columns={columns}
      dataSource={query.data?.items}
      loading={query.isFetching}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('admin.keys.none') }}
      pagination={{ pageSize: 50, hideOnSinglePage: true }}
    />
  );
}
