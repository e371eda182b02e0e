import Col from 'antd/es/col';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import {
  DATA_TYPES,
  REGISTER_TYPES,
  WORD_ORDERS,
  defaultBounds,
  signalBody,
  type Signal,
  type SignalBody,
} from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { formatNumber } from '../../../lib/format';
import { orNull } from '../../../lib/form-values';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveSignal } from '../api/save-signal';

interface Values {
  key: string;
  name: string;
  unit: string;
  data_type: NonNullable<SignalBody['data_type']>;
  register_type: SignalBody['register_type'];
  address: number | null;
  word_order: SignalBody['word_order'];
  scale: number | null;
  is_counter: boolean;
  is_active: boolean;
  min_value: number | null;
  max_value: number | null;
}
const shape = signalBody.shape;

interface SignalFormProps {
  deviceId: number;
  /** The device's rating, for the default power bounds shown (null: unknown or none). */
  ratedPowerKw: number | null;
  open: boolean;
  signal: Signal | null;
  onClose: () => void;
}

/**
 * Create/edit drawer of a signal: key, name, unit, data and register type, address, word order, scale,
 * and the validity bounds (each empty one shows the unit's default for this device).
 */
export function SignalForm({ deviceId, ratedPowerKw, open, signal, onClose }: SignalFormProps) {
  const { t, i18n } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveSignal();
  const unit = Form.useWatch('unit', form) ?? signal?.unit ?? '';
  const defaults = defaultBounds(orNull(unit), ratedPowerKw);
  const defaultText = (value: number | null) =>
    value === null
      ? t('signals.boundNone')
      : t('signals.boundDefault', { value: formatNumber(value, i18n.language, 6) });

  const onFinish = (v: Values) => {
    const body: SignalBody = {
      device_id: deviceId,
      key: v.key.trim(),
      name: v.name,
      unit: orNull(v.unit),
      data_type: v.data_type,
      register_type: v.register_type ?? null,
      address: orNull(v.address),
      word_order: v.word_order ?? null,
      scale: v.scale ?? 1,
      is_counter: v.is_counter,
      is_active: v.is_active,
      min_value: orNull(v.min_value),
      max_value: orNull(v.max_value),
    };
    entity.save(save, { id: signal?.id ?? 0, body }, onClose);
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="signal"
      open={open}
      title={t(signal ? 'signals.edit' : 'signals.create')}
      saving={save.isPending}
      onClose={onClose}
      onFinish={onFinish}
      initialValues={{
        key: signal?.key ?? '',
        name: signal?.name ?? '',
        unit: signal?.unit ?? '',
        data_type: signal?.data_type ?? 'float32',
        register_type: signal?.register_type ?? 'holding',
        address: signal?.address ?? null,
        word_order: signal?.word_order ?? 'big',
        scale: signal?.scale ?? 1,
        is_counter: signal?.is_counter ?? false,
        is_active: signal?.is_active ?? true,
        min_value: signal?.min_value ?? null,
        max_value: signal?.max_value ?? null,
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="key"
            label={t('signals.key')}
            tooltip={t('signals.keyHint')}
            rules={[schemaRule(shape.key, t, true)]}
          >
            <Input
              placeholder="ac_power"
              className="mono"
              data-testid="signal-field-key"
              autoComplete="off"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('signals.name')} rules={[schemaRule(shape.name, t, true)]}>
            <Input data-testid="signal-field-name" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="unit" label={t('signals.unit')} rules={[schemaRule(shape.unit, t)]}>
            <Input placeholder="kW" data-testid="signal-field-unit" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name="data_type"
            label={t('signals.data_type')}
            rules={[schemaRule(shape.data_type, t, true)]}
          >
            <Select
              options={DATA_TYPES.map((v) => ({ value: v, label: t(`signals.dataTypes.${v}`) }))}
              data-testid="signal-field-data_type"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name="scale"
            label={t('signals.scale')}
            tooltip={t('signals.scaleHint')}
            rules={[schemaRule(shape.scale, t)]}
          >
            <InputNumber className="full-width" step={0.1} data-testid="signal-field-scale" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="register_type" label={t('signals.register_type')}>
            <Select
              allowClear
              options={REGISTER_TYPES.map((v) => ({ value: v, label: t(`signals.registerTypes.${v}`) }))}
              data-testid="signal-field-register_type"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="address" label={t('signals.address')} rules={[schemaRule(shape.address, t)]}>
            <InputNumber className="full-width" min={0} data-testid="signal-field-address" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="word_order" label={t('signals.word_order')}>
            <Select
              allowClear
              options={WORD_ORDERS.map((v) => ({ value: v, label: t(`signals.wordOrders.${v}`) }))}
              data-testid="signal-field-word_order"
            />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item
            name="min_value"
            label={t('signals.min_value')}
            tooltip={t('signals.boundsHint')}
            rules={[schemaRule(shape.min_value, t)]}
          >
            <InputNumber
              className="full-width"
              placeholder={defaultText(defaults.min)}
              data-testid="signal-field-min_value"
            />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item
            name="max_value"
            label={t('signals.max_value')}
            tooltip={t('signals.boundsHint')}
            rules={[schemaRule(shape.max_value, t)]}
          >
            <InputNumber
              className="full-width"
              placeholder={defaultText(defaults.max)}
              data-testid="signal-field-max_value"
            />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item
            name="is_counter"
            label={t('signals.is_counter')}
            tooltip={t('signals.counterHint')}
            valuePropName="checked"
          >
            <Switch data-testid="signal-field-is_counter" />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
            <Switch data-testid="signal-field-is_active" />
          </Form.Item>
        </Col>
      </Row>
    </EntityFormDrawer>
  );
}
