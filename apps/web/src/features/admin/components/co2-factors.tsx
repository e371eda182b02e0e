import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import EditOutlined from '@ant-design/icons/EditOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import UndoOutlined from '@ant-design/icons/UndoOutlined';
import { useTranslation } from 'react-i18next';
import {
  CO2_DEFAULT_COUNTRY,
  CO2_FACTOR_BOUNDS,
  CO2_YEAR_BOUNDS,
  co2CountryParam,
  co2FactorBody,
  type Co2FactorItem,
} from '@solar/shared';
import { Form } from '../../../components';
import { reportSaveError } from '../../../lib/api-errors';
import { schemaRule } from '../../../lib/schema-rule';
import { useCo2Factors, useRemoveCo2Factor, useSaveCo2Factor } from '../api/branding';

interface Values {
  country: string;
  kg_per_kwh: number;
  year: number;
  source: string;
}
const shape = co2FactorBody.shape;

/** The country's name in the interface language (Intl, no table of our own), DEFAULT said in words. */
function useCountryName() {
  const { t, i18n } = useTranslation();
  const names = new Intl.DisplayNames([i18n.language.replace('_', '-')], { type: 'region' });
  return (country: string) => {
    if (country === CO2_DEFAULT_COUNTRY) return t('admin.co2.default');
    try {
      return names.of(country) ?? country;
    } catch {
      return country;
    }
  };
}

/**
 * The grid emission factors the KPIs' CO₂ avoided uses: the built-in table with its sources, the admin's
 * overrides beside it, editing a country's factor, adding a country, and going back to the built-in one.
 */
export function Co2Factors() {
  const { t } = useTranslation();
  const query = useCo2Factors();
  const remove = useRemoveCo2Factor();
  const countryName = useCountryName();
  /** The row being edited; `null` country: adding one. */
  const [editing, setEditing] = useState<{ item: Co2FactorItem | null } | null>(null);

  const columns: ColumnsType<Co2FactorItem> = [
    {
      key: 'country',
      title: t('admin.co2.country'),
      render: (_, f) => (
        <Space direction="vertical" size={2}>
          <span>
            {f.country !== CO2_DEFAULT_COUNTRY && <code>{f.country}</code>} {countryName(f.country)}
          </span>
          <Tag color={f.origin === 'override' ? 'gold' : 'default'} data-testid={`co2-origin-${f.country}`}>
            {t(`admin.co2.origin.${f.origin}`)}
          </Tag>
          {/* A phone has no source column: the source under the country. */}
          <Typography.Text type="secondary" className="admin-co2-source-inline">
            {f.source}
            {f.origin === 'override' && f.built_in && (
              <>
                <br />
                {t('admin.co2.builtIn', { value: f.built_in.kg_per_kwh, year: f.built_in.year })}
              </>
            )}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'factor',
      title: t('admin.co2.factor'),
      render: (_, f) => (
        <Space direction="vertical" size={0}>
          <strong data-testid={`co2-value-${f.country}`}>{f.kg_per_kwh}</strong>
          <Typography.Text type="secondary" className="admin-co2-unit">
            {t('admin.co2.unit')}
          </Typography.Text>
          <Typography.Text type="secondary">{f.year}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'source',
      title: t('admin.co2.source'),
      className: 'admin-co2-source',
      responsive: ['md'],
      render: (_, f) => (
        <>
          <div>{f.source}</div>
          {f.origin === 'override' && f.built_in && (
            <Typography.Text type="secondary">
              {t('admin.co2.builtIn', { value: f.built_in.kg_per_kwh, year: f.built_in.year })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      key: 'actions',
      title: '',
      align: 'right',
      render: (_, f) => (
        <Space direction="vertical" size={4} align="end">
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing({ item: f })}
            aria-label={`${t('admin.co2.edit')}: ${f.country}`}
            title={t('admin.co2.edit')}
            data-testid={`co2-edit-${f.country}`}
          />
          {f.origin === 'override' && (
            <Popconfirm
              title={t('admin.co2.resetConfirm', { country: f.country })}
              okText={t(f.built_in ? 'admin.co2.reset' : 'admin.co2.remove')}
              cancelText={t('common.cancel')}
              onConfirm={() => remove.mutate(f.country)}
            >
              <Button
                size="small"
                danger
                icon={<UndoOutlined />}
                aria-label={`${t(f.built_in ? 'admin.co2.reset' : 'admin.co2.remove')}: ${f.country}`}
                title={t(f.built_in ? 'admin.co2.reset' : 'admin.co2.remove')}
                data-testid={`co2-reset-${f.country}`}
              />
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t('admin.co2.title')}
      extra={
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ item: null })}
          data-testid="co2-add"
        >
          {t('admin.co2.add')}
        </Button>
      }
      data-testid="co2-factors"
    >
      <Space direction="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('admin.co2.hint')}</Typography.Text>
        <Table<Co2FactorItem>
          rowKey="country"
          size="small"
          data-testid="co2-table"
          columns={columns}
          dataSource={query.data?.items}
          loading={query.isFetching}
          scroll={{ x: 'max-content' }}
          pagination={false}
        />
      </Space>
      {editing && (
        <Co2FactorDialog
          item={editing.item}
          taken={new Set(query.data?.items.map((i) => i.country))}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
}

/** Editing a country's factor, or adding a country (its code then entered too). */
function Co2FactorDialog({
  item,
  taken,
  onClose,
}: {
  item: Co2FactorItem | null;
  taken: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveCo2Factor();
  const [error, setError] = useState<string | null>(null);
  const adding = item === null;

  const onFinish = (v: Values) => {
    setError(null);
    const country = v.country.trim().toUpperCase();
    save.mutate(
      { country, body: { kg_per_kwh: v.kg_per_kwh, year: v.year, source: v.source } },
      {
        onSuccess: onClose,
        onError: (e) => reportSaveError(form, e, t, setError),
      },
    );
  };

  return (
    <Modal
      open
      title={adding ? t('admin.co2.addTitle') : t('admin.co2.editTitle', { country: item.country })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'co2-save' }}
      destroyOnHidden
      data-testid="co2-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={
          item
            ? { country: item.country, kg_per_kwh: item.kg_per_kwh, year: item.year, source: item.source }
            : { year: new Date().getFullYear() - 1 }
        }
      >
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Form.Item
          name="country"
          label={t('admin.co2.country')}
          extra={adding ? t('admin.co2.countryHint') : undefined}
          rules={[
            schemaRule(co2CountryParam.shape.country, t, true),
            {
              validator: (_r, value: string | undefined) =>
                adding && value && taken.has(value.trim().toUpperCase())
                  ? Promise.reject(new Error(t('validation.duplicate')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input disabled={!adding} maxLength={7} autoComplete="off" data-testid="co2-country" />
        </Form.Item>
        <Form.Item
          name="kg_per_kwh"
          label={`${t('admin.co2.factor')} (${t('admin.co2.unit')})`}
          rules={[schemaRule(shape.kg_per_kwh, t, true)]}
          extra={t('admin.settings.range', { min: CO2_FACTOR_BOUNDS[0], max: CO2_FACTOR_BOUNDS[1] })}
        >
          <InputNumber style={{ width: '100%' }} step={0.001} data-testid="co2-kg_per_kwh" />
        </Form.Item>
        <Form.Item
          name="year"
          label={t('admin.co2.year')}
          rules={[schemaRule(shape.year, t, true)]}
          extra={t('admin.settings.range', { min: CO2_YEAR_BOUNDS[0], max: CO2_YEAR_BOUNDS[1] })}
        >
          <InputNumber style={{ width: '100%' }} precision={0} data-testid="co2-year" />
        </Form.Item>
        <Form.Item name="source" label={t('admin.co2.source')} rules={[schemaRule(shape.source, t, true)]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={300} data-testid="co2-source" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
