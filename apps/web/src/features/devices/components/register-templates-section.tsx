import { useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import CopyOutlined from '@ant-design/icons/CopyOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { useTranslation } from 'react-i18next';
import { registerTemplateSchema, type RegisterTemplate, type RegisterTemplateEntry } from '@solar/shared';
import { RowActions } from '../../../components';
import { saveBlob } from '../../../lib/download';
import { useEditor } from '../../../lib/editor-state';
import { useCan } from '../../../lib/permissions';
import { useDeleteRegisterTemplate, useRegisterTemplates } from '../api/register-templates';
import { RegisterTemplateForm } from './register-template-form';

/** A list row's key: shipped templates by their id, a company's own by its number. */
export const entryKey = (e: RegisterTemplateEntry) =>
  e.source === 'shipped' ? `shipped:${e.template.id}` : `company:${e.id}`;

/** All signals a template maps with its default string inputs. */
const signalCount = (t: RegisterTemplate) =>
  t.signals.length + (t.strings ? t.strings.default * t.strings.signals.length : 0);

/** Downloads a template as the JSON file the import takes. */
const download = (template: RegisterTemplate) =>
  saveBlob(
    new Blob([`${JSON.stringify(template, null, 2)}\n`], { type: 'application/json' }),
    `${template.id}.json`,
  );

/**
 * The "Register templates" card of the device management page: the shipped templates and the company's
 * own, each downloadable as its JSON file; own ones edited in a drawer; a shipped one copied to edit; a
 * JSON file imported into the editor, saved when the user saves it.
 */
export function RegisterTemplatesSection() {
  const { t } = useTranslation();
  const can = useCan('device_management');
  const templates = useRegisterTemplates(can.update);
  const remove = useDeleteRegisterTemplate();
  const editor = useEditor<RegisterTemplateEntry>();
  const [draft, setDraft] = useState<RegisterTemplate | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  if (!can.update) return null;

  const openDraft = (template: RegisterTemplate | null) => {
    setImportError(null);
    setDraft(template);
    editor.openCreate();
  };
  const openEdit = (entry: RegisterTemplateEntry) => {
    setDraft(null);
    editor.openEdit(entry);
  };
  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    try {
      openDraft(registerTemplateSchema.parse(JSON.parse(await chosen.text())));
    } catch {
      setImportError(t('registerTemplates.importFailed'));
    }
  };

  const columns: ColumnsType<RegisterTemplateEntry> = [
    {
      key: 'label',
      title: t('registerTemplates.label'),
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          <span>{e.template.label}</span>
          <Typography.Text type="secondary" className="mono">
            {e.template.id}
          </Typography.Text>
        </Space>
      ),
    },
    { key: 'vendor', title: t('registerTemplates.vendor'), render: (_, e) => e.template.vendor },
    {
      key: 'device_type',
      title: t('registerTemplates.device_type'),
      responsive: ['md'],
      render: (_, e) => t(`devices.types.${e.template.device_type}`),
    },
    {
      key: 'signals',
      title: t('registerTemplates.signals'),
      responsive: ['lg'],
      render: (_, e) => t('registerTemplates.signalCount', { count: signalCount(e.template) }),
    },
    {
      key: 'source',
      title: t('registerTemplates.origin'),
      render: (_, e) => (
        <Tag color={e.source === 'company' ? 'blue' : 'default'}>
          {t(`registerTemplates.sources.${e.source}`)}
        </Tag>
      ),
    },
    {
      key: 'actions',
      fixed: 'right',
      align: 'right',
      title: t('management.actions'),
      render: (_, e) => {
        const key = entryKey(e);
        const extra = (
          <>
            <Tooltip title={t('registerTemplates.export')}>
              <Button
                type="text"
                icon={<DownloadOutlined />}
                aria-label={t('registerTemplates.export')}
                onClick={() => download(e.template)}
                data-testid={`register-template-export-${key}`}
              />
            </Tooltip>
            {can.create && (
              <Tooltip title={t('registerTemplates.copy')}>
                <Button
                  type="text"
                  icon={<CopyOutlined />}
                  aria-label={t('registerTemplates.copy')}
                  onClick={() => openDraft({ ...e.template, id: `${e.template.id}-copy`.slice(0, 60) })}
                  data-testid={`register-template-copy-${key}`}
                />
              </Tooltip>
            )}
          </>
        );
        return e.source === 'company' ? (
          <RowActions
            resource="register-template"
            id={e.id!}
            extra={extra}
            onEdit={() => openEdit(e)}
            onDelete={can.delete ? () => remove.mutate(e.id!) : undefined}
          />
        ) : (
          <Space size={4}>{extra}</Space>
        );
      },
    },
  ];

  return (
    <Card
      className="register-templates-card"
      title={t('registerTemplates.title')}
      data-testid="register-templates"
      extra={
        can.create && (
          <Space wrap>
            <input
              ref={file}
              type="file"
              accept="application/json,.json"
              hidden
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                // Cleared, so that choosing the same file again reads it again.
                e.target.value = '';
                void onFile(chosen);
              }}
              data-testid="register-template-file"
            />
            <Button
              icon={<UploadOutlined />}
              onClick={() => file.current?.click()}
              data-testid="register-template-import"
            >
              {t('registerTemplates.import')}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => openDraft(null)}
              data-testid="register-template-create"
            >
              {t('registerTemplates.create')}
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('registerTemplates.hint')}</Typography.Paragraph>
      {importError && (
        <Alert
          type="error"
          showIcon
          title={importError}
          closable
          onClose={() => setImportError(null)}
          className="management-form-error"
          data-testid="register-template-import-error"
        />
      )}
      <Table<RegisterTemplateEntry>
        rowKey={entryKey}
        data-testid="register-template-table"
        columns={columns}
        dataSource={templates.data?.templates}
        loading={templates.isFetching}
        pagination={false}
        scroll={{ x: true }}
        tableLayout="auto"
        size="small"
      />
      <RegisterTemplateForm
        key={editor.session}
        open={editor.open}
        entry={editor.record}
        draft={draft}
        onClose={editor.close}
      />
    </Card>
  );
}
