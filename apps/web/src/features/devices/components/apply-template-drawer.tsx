import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import { Form } from '../../../components';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import type {
  Device,
  RegisterTemplateApplyBody,
  RegisterTemplateCheckAnswer,
  RegisterTemplateEntry,
} from '@solar/shared';
import { errorMessageOf } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import {
  useApplyRegisterTemplate,
  useCheckRegisterTemplate,
  useRegisterTemplates,
} from '../api/register-templates';
import { entryKey } from './register-templates-section';

type CheckedRegister = RegisterTemplateCheckAnswer['registers'][number];

/** The apply body naming a listed template: a shipped one by its id, a company's own by its number. */
function bodyOf(entry: RegisterTemplateEntry, strings: number | null): RegisterTemplateApplyBody {
  const named = entry.source === 'shipped' ? { template: entry.template.id } : { template_id: entry.id! };
  return entry.template.strings && strings !== null ? { ...named, strings } : named;
}

interface ApplyTemplateDrawerProps {
  device: Device | null;
  onClose: () => void;
}

/**
 * "Apply template" of a Modbus device: any listed template (the device's type first), its string inputs,
 * a test that reads each mapped register once from the device (failing registers highlighted), and the
 * apply that creates the signals.
 */
export function ApplyTemplateDrawer({ device, onClose }: ApplyTemplateDrawerProps) {
  const { t, i18n } = useTranslation();
  const templates = useRegisterTemplates(device !== null);
  const check = useCheckRegisterTemplate();
  const apply = useApplyRegisterTemplate();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [strings, setStrings] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const entries = [...(templates.data?.templates ?? [])].sort(
    (a, b) =>
      Number(b.template.device_type === device?.type) - Number(a.template.device_type === device?.type),
  );
  const entry = entries.find((e) => entryKey(e) === chosen);
  const result = check.data;

  const run = (what: 'check' | 'apply') => {
    if (!device || !entry) return;
    setError(null);
    const variables = { deviceId: device.id, body: bodyOf(entry, strings) };
    const onError = (e: unknown) => setError(errorMessageOf(e, t));
    if (what === 'check') check.mutate(variables, { onError });
    else
      apply.mutate(variables, {
        onError,
        onSuccess: (answer) =>
          notify.success(
            t('registerTemplates.applied', {
              created: answer.created.length,
              skipped: answer.skipped.length,
            }),
          ),
      });
  };

  const outcomeText = (r: CheckedRegister) =>
    r.outcome === 'exception'
      ? `${t('registerTemplates.outcomes.exception', { code: r.exception_code })}${
          r.exception_code === 2 ? ` (${t('registerTemplates.illegalAddress')})` : ''
        }`
      : t(`registerTemplates.outcomes.${r.outcome}`, {
          min: formatNumber(r.min, i18n.language),
          max: formatNumber(r.max, i18n.language),
        });
  const columns: ColumnsType<CheckedRegister> = [
    {
      key: 'key',
      dataIndex: 'key',
      title: t('signals.key'),
      render: (k: string) => <span className="mono">{k}</span>,
    },
    { key: 'address', dataIndex: 'address', title: t('signals.address') },
    {
      key: 'register_type',
      title: t('signals.register_type'),
      // On a phone the key, address, value and result fit; the register type is shown from tablets up.
      responsive: ['md'],
      render: (_, r) => t(`signals.registerTypes.${r.register_type}`),
    },
    {
      key: 'value',
      title: t('registerTemplates.value'),
      align: 'right',
      render: (_, r) => (r.value === null ? '' : `${formatNumber(r.value, i18n.language)} ${r.unit ?? ''}`),
    },
    {
      key: 'outcome',
      title: t('registerTemplates.outcome'),
      render: (_, r) => (
        <Tag
          color={r.outcome === 'ok' ? 'success' : r.outcome === 'not_read' ? 'default' : 'error'}
          className="register-check-tag"
          data-testid={`register-check-outcome-${r.key}`}
        >
          {outcomeText(r)}
        </Tag>
      ),
    },
  ];
  const failing = result?.registers.filter((r) => r.outcome === 'exception' || r.outcome === 'out_of_range');

  return (
    <Drawer
      open={device !== null}
      title={device ? t('registerTemplates.applyTitle', { name: device.name }) : ''}
      onClose={onClose}
      size={720}
      destroyOnHidden
      className="management-drawer"
      rootClassName="management-drawer-root"
      data-testid="apply-template-drawer"
      footer={
        <div className="management-drawer-footer">
          <Button
            onClick={() => run('check')}
            loading={check.isPending}
            disabled={!entry}
            data-testid="apply-template-test"
          >
            {t('registerTemplates.test')}
          </Button>
          <Button
            type="primary"
            onClick={() => run('apply')}
            loading={apply.isPending}
            disabled={!entry}
            data-testid="apply-template-apply"
          >
            {t('registerTemplates.apply')}
          </Button>
        </div>
      }
    >
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          className="management-form-error"
          data-testid="apply-template-error"
        />
      )}
      <Form layout="vertical">
        <Form.Item label={t('registerTemplates.template')}>
          <Select<string>
            showSearch={{ optionFilterProp: 'label' }}
            value={chosen}
            onChange={(v) => {
              setChosen(v);
              check.reset();
              const picked = entries.find((e) => entryKey(e) === v);
              setStrings(picked?.template.strings?.default ?? null);
            }}
            loading={templates.isLoading}
            placeholder={t('management.select')}
            options={entries.map((e) => ({
              value: entryKey(e),
              label: `${e.template.label} · ${t(`registerTemplates.sources.${e.source}`)} · ${t(
                `devices.types.${e.template.device_type}`,
              )}`,
            }))}
            data-testid="apply-template-select"
          />
        </Form.Item>
        {entry?.template.strings && (
          <Form.Item label={t('registerTemplates.stringCount')}>
            <InputNumber
              min={1}
              max={entry.template.strings.max}
              value={strings}
              onChange={(v) => setStrings(v)}
              data-testid="apply-template-strings"
            />
          </Form.Item>
        )}
      </Form>
      {result && failing && (
        <>
          <Alert
            type={failing.length ? 'warning' : 'success'}
            showIcon
            className="management-form-error"
            data-testid="register-check-summary"
            title={
              failing.length
                ? t('registerTemplates.checkFailing', {
                    failing: failing.length,
                    total: result.registers.length,
                  })
                : t('registerTemplates.checkOk', { total: result.registers.length })
            }
          />
          <Table<CheckedRegister>
            rowKey="key"
            size="small"
            data-testid="register-check-table"
            columns={columns}
            dataSource={result.registers}
            pagination={false}
            scroll={{ x: true }}
            tableLayout="auto"
            rowClassName={(r) =>
              r.outcome === 'exception' || r.outcome === 'out_of_range' ? 'register-check-failing' : ''
            }
          />
        </>
      )}
    </Drawer>
  );
}
