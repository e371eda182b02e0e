import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MODEL_LOSS_FACTORS_MAX, type PlantModelAnswer } from '@solar/shared';
import { Form, LoadingSpin } from '../../../components';
import { errorMessageOf } from '../../../lib/api-errors';
import { dateBounds } from '../../../lib/date-bounds';
import { formatNumber } from '../../../lib/format';
import { useFitPlantModel, usePlantModel, useSavePlantModel } from '../api/model';
import { toFraction, toPercent } from '../performance-view';

interface DesignValues {
  loss_factors: { name: string; percent: number }[];
  gamma_percent: number;
  inverter_efficiency_percent: number | null;
  ac_limit_kw: number | null;
}

interface CostValues {
  cleaning_cost: number | null;
  energy_price_per_kwh: number | null;
  currency: string | null;
}

/** What is in force: source, loss and γ, and a fit's standard errors and window. */
function Current({ model }: { model: PlantModelAnswer }) {
  const { t, i18n } = useTranslation();
  const num = (v: number | null, digits: number) => formatNumber(v, i18n.language, digits);
  return (
    <Space direction="vertical" size={0} data-testid="model-current">
      <Typography.Text strong>{t(`performance.modelSource.${model.source}`)}</Typography.Text>
      <Typography.Text>
        {t('performance.model.current', {
          loss: num(toPercent(model.system_loss_fraction), 2),
          gamma: num(toPercent(model.temperature_coefficient_per_k), 3),
        })}
      </Typography.Text>
      {model.source === 'fitted' && (
        <Typography.Text type="secondary">
          {t('performance.model.uncertainty', {
            loss: num(toPercent(model.system_loss_fraction_se), 2),
            gamma: num(toPercent(model.temperature_coefficient_per_k_se), 4),
            days: model.fit_days ?? 0,
            from: model.fitted_from ?? '',
            to: model.fitted_to ?? '',
          })}
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * The plant's model parameters: what is in force, design parameters (PVsyst or SAM loss factors, γ, inverter
 * efficiency, AC limit), the cleaning cost and energy price, and a fit on a period's clear days. Saving needs
 * plant_management update; the server audits every change.
 */
export function ModelForm({
  plantId,
  canEdit,
  onClose,
}: {
  plantId: number;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const query = usePlantModel(plantId, true);
  const save = useSavePlantModel(plantId);
  const fit = useFitPlantModel(plantId);
  const [design] = Form.useForm<DesignValues>();
  const [costs] = Form.useForm<CostValues>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [notice, setNotice] = useState<{ type: 'success' | 'error' | 'warning'; text: string } | null>(null);
  const model = query.data;

  const costBody = (v: CostValues) => ({
    cleaning_cost: v.cleaning_cost ?? null,
    energy_price_per_kwh: v.energy_price_per_kwh ?? null,
    currency: v.currency?.trim() ? v.currency.trim() : null,
  });
  const done = (text: string) => setNotice({ type: 'success', text });
  const failed = (error: unknown) => setNotice({ type: 'error', text: errorMessageOf(error, t) });

  const saveDesign = (v: DesignValues) =>
    save.mutate(
      {
        design: {
          loss_factors: (v.loss_factors ?? []).map((l) => ({
            name: l.name,
            fraction: toFraction(l.percent) ?? 0,
          })),
          temperature_coefficient_per_k: toFraction(v.gamma_percent) ?? 0,
          inverter_efficiency: toFraction(v.inverter_efficiency_percent),
          ac_limit_kw: v.ac_limit_kw ?? null,
        },
        ...costBody(costs.getFieldsValue()),
      },
      { onSuccess: () => done(t('performance.model.saved')), onError: failed },
    );
  const saveCosts = (v: CostValues) =>
    save.mutate(
      { design: null, ...costBody(v) },
      { onSuccess: () => done(t('performance.model.saved')), onError: failed },
    );
  const runFit = () => {
    if (!range) return;
    fit.mutate(
      { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') },
      {
        onSuccess: (answer) =>
          answer.status === 'fitted'
            ? done(t('performance.model.fitDone'))
            : setNotice({
                type: 'warning',
                text: t('performance.model.fitInsufficient', {
                  days: answer.days,
                  needed: answer.days_needed,
                }),
              }),
        onError: failed,
      },
    );
  };

  return (
    <Modal
      open
      title={t('performance.model.title')}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {!model ? (
        query.isError ? (
          <Alert type="error" showIcon message={errorMessageOf(query.error, t)} />
        ) : (
          <LoadingSpin />
        )
      ) : (
        <div data-testid="model-form">
          <Current model={model} />
          {notice && (
            <Alert
              className="performance-notice"
              type={notice.type}
              showIcon
              message={notice.text}
              data-testid="model-notice"
            />
          )}
          <Divider titlePlacement="start" plain>
            {t('performance.model.designSection')}
          </Divider>
          <Form<DesignValues>
            form={design}
            layout="vertical"
            disabled={!canEdit}
            onFinish={saveDesign}
            initialValues={{
              loss_factors: model.loss_factors.map((l) => ({ name: l.name, percent: toPercent(l.fraction) })),
              gamma_percent: toPercent(model.temperature_coefficient_per_k),
              inverter_efficiency_percent: toPercent(model.inverter_efficiency),
              ac_limit_kw: model.ac_limit_kw,
            }}
          >
            <Form.List name="loss_factors">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((field) => (
                    <Space key={field.key} align="baseline">
                      <Form.Item
                        name={[field.name, 'name']}
                        label={t('performance.model.lossName')}
                        rules={[{ required: true, message: t('validation.required') }]}
                      >
                        <Input maxLength={60} />
                      </Form.Item>
                      <Form.Item
                        name={[field.name, 'percent']}
                        label={t('performance.model.lossPercent')}
                        rules={[{ required: true, message: t('validation.required') }]}
                      >
                        <InputNumber min={0} max={50} step={0.1} />
                      </Form.Item>
                      <Button type="link" onClick={() => remove(field.name)}>
                        {t('performance.model.remove')}
                      </Button>
                    </Space>
                  ))}
                  {fields.length < MODEL_LOSS_FACTORS_MAX && (
                    <Button onClick={() => add({ name: '', percent: 0 })} data-testid="model-add-loss">
                      {t('performance.model.addLoss')}
                    </Button>
                  )}
                </>
              )}
            </Form.List>
            <Space wrap>
              <Form.Item
                name="gamma_percent"
                label={t('performance.model.gamma')}
                rules={[{ required: true, message: t('validation.required') }]}
              >
                <InputNumber min={-1} max={0} step={0.01} />
              </Form.Item>
              <Form.Item name="inverter_efficiency_percent" label={t('performance.model.inverterEfficiency')}>
                <InputNumber min={50} max={100} step={0.1} />
              </Form.Item>
              <Form.Item name="ac_limit_kw" label={t('performance.model.acLimit')}>
                <InputNumber min={0} />
              </Form.Item>
            </Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="model-save-design">
              {t('performance.model.saveDesign')}
            </Button>
          </Form>
          <Divider titlePlacement="start" plain>
            {t('performance.model.costSection')}
          </Divider>
          <Form<CostValues>
            form={costs}
            layout="vertical"
            disabled={!canEdit}
            onFinish={saveCosts}
            initialValues={{
              cleaning_cost: model.cleaning_cost,
              energy_price_per_kwh: model.energy_price_per_kwh,
              currency: model.currency,
            }}
          >
            <Space wrap>
              <Form.Item name="cleaning_cost" label={t('performance.model.cleaningCost')}>
                <InputNumber min={0} data-testid="model-cleaning-cost" />
              </Form.Item>
              <Form.Item name="energy_price_per_kwh" label={t('performance.model.energyPrice')}>
                <InputNumber min={0} step={0.01} data-testid="model-energy-price" />
              </Form.Item>
              <Form.Item name="currency" label={t('performance.model.currency')}>
                <Input maxLength={8} />
              </Form.Item>
            </Space>
            <Button htmlType="submit" loading={save.isPending} data-testid="model-save-costs">
              {t('performance.model.saveCosts')}
            </Button>
          </Form>
          <Divider titlePlacement="start" plain>
            {t('performance.model.fitSection')}
          </Divider>
          <Typography.Paragraph type="secondary">{t('performance.model.fitHint')}</Typography.Paragraph>
          <Space wrap>
            <DatePicker.RangePicker
              {...dateBounds}
              disabled={!canEdit}
              aria-label={t('performance.model.fitPeriod')}
              onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            />
            <Button
              onClick={runFit}
              disabled={!canEdit || !range}
              loading={fit.isPending}
              data-testid="model-fit"
            >
              {t('performance.model.fit')}
            </Button>
          </Space>
        </div>
      )}
    </Modal>
  );
}
