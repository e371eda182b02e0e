import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from '../../../lib/api-errors';
import { notify } from '../../../lib/notify';
import { downloadFile } from '../api/download';
import { useSystemInfo } from '../api/fleet';

/** Version and migration state; the SQLite backup download or the PostgreSQL pg_dump command. */
export function BackupPanel() {
  const { t, i18n } = useTranslation();
  const query = useSystemInfo();
  const [downloading, setDownloading] = useState(false);
  const info = query.data;
  const locale = i18n.language.replace('_', '-');
  const onDownload = async () => {
    setDownloading(true);
    try {
      await downloadFile('admin/backup');
    } catch (e) {
      notify.error(errorMessageOf(e, t));
    } finally {
      setDownloading(false);
    }
  };
  if (!info) return null;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('admin.backup.title')}>
        {info.backup.kind === 'sqlite_download' ? (
          <Space direction="vertical">
            <Typography.Text>
              {t('admin.backup.sqliteHint', {
                size: (info.backup.database_bytes / 1_048_576).toLocaleString(locale, {
                  maximumFractionDigits: 1,
                }),
              })}
            </Typography.Text>
            <Button
              type="primary"
              onClick={() => void onDownload()}
              loading={downloading}
              data-testid="backup-download"
            >
              {t('admin.backup.download')}
            </Button>
          </Space>
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text>{t('admin.backup.pgHint')}</Typography.Text>
            <Typography.Paragraph
              code
              copyable
              data-testid="backup-pg-dump"
              style={{ wordBreak: 'break-all' }}
            >
              {info.backup.command}
            </Typography.Paragraph>
          </Space>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('admin.backup.restoreHint')}
        </Typography.Paragraph>
      </Card>
      <Card size="small" title={t('admin.backup.system')}>
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('admin.backup.version')}>{info.version}</Descriptions.Item>
          <Descriptions.Item label={t('admin.backup.database')}>
            {t(`admin.backup.dialect.${info.dialect}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('admin.backup.pending')}>
            {info.pending.length === 0 ? (
              <Tag color="green">{t('admin.backup.upToDate')}</Tag>
            ) : (
              info.pending.join(', ')
            )}
          </Descriptions.Item>
        </Descriptions>
        <Table
          rowKey="name"
          size="small"
          data-testid="migrations-table"
          dataSource={info.migrations}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'name', dataIndex: 'name', title: t('admin.backup.migration') },
            {
              key: 'applied_at',
              title: t('admin.backup.appliedAt'),
              render: (_, m: { applied_at: string | null }) =>
                m.applied_at ? (
                  new Date(m.applied_at).toLocaleString(locale)
                ) : (
                  <Tag color="orange">{t('admin.backup.notApplied')}</Tag>
                ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
