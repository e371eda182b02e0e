import { useMemo, useState } from 'react';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PLANT_MODEL_DEFAULTS, plantBody, type Plant } from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { useFieldOptions } from '../../fields';
import { errorMessageOf } from '../../../lib/api-errors';
import { orNull } from '../../../lib/form-values';
import { useCan } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import { timeZoneNames } from '../../../lib/time-zones';
import { useSavePlantBudgets } from '../api/budgets';
import { useSavePlant } from '../api/save-plant';
import { BudgetEditor, useBudgetDrafts } from './budget-editor';
import { dateBounds } from '../../../lib/date-bounds';

interface Values {
  field_id: number | undefined;
  name: string;
  dc_capacity_kwp: number | null;
  ac_capacity_kw: number | null;
  latitude: number | null;
  longitude: number | null;
  time_zone: string;
  commissioning_date: Dayjs | null;
  subscriber_numbers: string[];
  tilt_deg: number | null;
  azimuth_deg: number | null;
  temperature_coefficient_per_k: number | null;
  system_loss_fraction: number | null;
  is_active: boolean;
}
const shape = plantBody.shape;
type NumberField =
  | 'dc_capacity_kwp'
  | 'ac_capacity_kw'
  | 'latitude'
  | 'longitude'
  | 'tilt_deg'
  | 'azimuth_deg'
  | 'temperature_coefficient_per_k'
  | 'system_loss_fraction';

interface PlantFormProps {
  open: boolean;
  plant: Plant | null;
  onClose: () => void;
}

/** Create/edit drawer of a plant: field, capacities, location, time zone, dates, subscriber numbers. */
export function PlantForm({ open, plant, onClose }: PlantFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const save = useSavePlant();
  const saveBudgets = useSavePlantBudgets();
  // The budget is edited by whoever may edit plants (POST plants/{id}/budgets needs plant_management update).
  const canEditBudget = useCan('plant_management').update;
  const budgets = useBudgetDrafts();
  // A created plant whose budget then failed to save: saving again updates it instead of creating another.
  const [createdId, setCreatedId] = useState<number | null>(null);
  const plantId = plant?.id ?? createdId;
  const fields = useFieldOptions(null, useCan('field_management').view);
  const fieldOptions = (fields.data ?? []).map((f) => ({
    value: f.id,
    label: `${f.name} · ${f.company_name}`,
  }));
  if (plant && !fieldOptions.some((o) => o.value === plant.field_id))
    fieldOptions.push({ value: plant.field_id, label: `${plant.field_name} · ${plant.company_name}` });
  const zones = useMemo(() => timeZoneNames().map((z) => ({ value: z, label: z })), []);

  const onFinish = (values: Values) => {
    entity.setError(null);
    if (canEditBudget && budgets.check() !== null) return;
    const body = {
      field_id: values.field_id ?? 0,
      name: values.name,
      dc_capacity_kwp: orNull(values.dc_capacity_kwp),
      ac_capacity_kw: orNull(values.ac_capacity_kw),
      latitude: orNull(values.latitude),
      longitude: orNull(values.longitude),
      time_zone: values.time_zone,
      commissioning_date: values.commissioning_date ? values.commissioning_date.format('YYYY-MM-DD') : null,
      subscriber_numbers: (values.subscriber_numbers ?? []).map((s) => s.trim()).filter(Boolean),
      tilt_deg: orNull(values.tilt_deg),
      azimuth_deg: orNull(values.azimuth_deg),
      temperature_coefficient_per_k: orNull(values.temperature_coefficient_per_k),
      system_loss_fraction: orNull(values.system_loss_fraction),
      is_active: values.is_active,
    };
    const years = canEditBudget ? budgets.bodies() : [];
    // The budget is saved against the plant's id, so after the plant (a new plant has its id only then).
    entity.save(save, { id: plantId ?? 0, body }, (saved) => {
      if (!years.length) return onClose();
      setCreatedId(saved.id);
      saveBudgets.mutate(
        { plantId: saved.id, years },
        { onSuccess: onClose, onError: (e) => entity.setError(errorMessageOf(e, t)) },
      );
    });
  };

  const number = (name: NumberField, label: string, extra: { step?: number; placeholder?: string } = {}) => (
    <Form.Item name={name} label={label} rules={[schemaRule(shape[name], t)]}>
      <InputNumber className="full-width" data-testid={`plant-field-${name}`} {...extra} />
    </Form.Item>
  );

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="plant"
      open={open}
      title={t(plant ? 'plants.edit' : 'plants.create')}
      saving={save.isPending || saveBudgets.isPending}
      onClose={onClose}
      width={640}
      onFinish={onFinish}
      initialValues={{
        field_id: plant?.field_id,
        name: plant?.name ?? '',
        dc_capacity_kwp: plant?.dc_capacity_kwp ?? null,
        ac_capacity_kw: plant?.ac_capacity_kw ?? null,
        latitude: plant?.latitude ?? null,
        longitude: plant?.longitude ?? null,
        time_zone: plant?.time_zone ?? 'Europe/Istanbul',
        commissioning_date: plant?.commissioning_date ? dayjs(plant.commissioning_date) : null,
        subscriber_numbers: plant?.subscriber_numbers ?? [],
        tilt_deg: plant?.tilt_deg ?? null,
        azimuth_deg: plant?.azimuth_deg ?? null,
        temperature_coefficient_per_k:
          plant?.temperature_coefficient_per_k ?? PLANT_MODEL_DEFAULTS.temperature_coefficient_per_k,
        system_loss_fraction: plant?.system_loss_fraction ?? PLANT_MODEL_DEFAULTS.system_loss_fraction,
        is_active: plant?.is_active ?? true,
      }}
    >
      <Form.Item name="field_id" label={t('plants.field')} rules={[schemaRule(shape.field_id, t, true)]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={fieldOptions}
          loading={fields.isLoading}
          placeholder={t('management.select')}
          data-testid="plant-field-field_id"
        />
      </Form.Item>
      <Form.Item name="name" label={t('plants.name')} rules={[schemaRule(shape.name, t, true)]}>
        <Input data-testid="plant-field-name" autoComplete="off" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {number('dc_capacity_kwp', t('plants.dc_capacity_kwp'), { step: 10 })}
        </Col>
        <Col xs={24} md={12}>
          {number('ac_capacity_kw', t('plants.ac_capacity_kw'), { step: 10 })}
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="commissioning_date" label={t('plants.commissioning_date')}>
            <DatePicker {...dateBounds} className="full-width" data-testid="plant-field-commissioning_date" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="time_zone"
            label={t('plants.time_zone')}
            rules={[schemaRule(shape.time_zone, t, true)]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={zones}
              data-testid="plant-field-time_zone"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="subscriber_numbers"
        label={t('plants.subscriber_numbers')}
        tooltip={t('plants.subscriberNumbersHint')}
        rules={[schemaRule(shape.subscriber_numbers, t)]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',', ' ', ';']}
          placeholder={t('plants.subscriberNumbersPlaceholder')}
          data-testid="plant-field-subscriber_numbers"
        />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('plants.locationAndOrientation')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {number('latitude', t('location.latitude'), { step: 0.000001, placeholder: '41.0082' })}
        </Col>
        <Col xs={24} md={12}>
          {number('longitude', t('location.longitude'), { step: 0.000001, placeholder: '28.9784' })}
        </Col>
        <Col xs={24} md={12}>
          {number('tilt_deg', t('plants.tilt_deg'))}
        </Col>
        <Col xs={24} md={12}>
          {number('azimuth_deg', t('plants.azimuth_deg'))}
        </Col>
        <Col xs={24} md={12}>
          {number('temperature_coefficient_per_k', t('plants.temperature_coefficient_per_k'), {
            step: 0.0001,
          })}
        </Col>
        <Col xs={24} md={12}>
          {number('system_loss_fraction', t('plants.system_loss_fraction'), { step: 0.01 })}
        </Col>
      </Row>
      <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
        <Switch data-testid="plant-field-is_active" />
      </Form.Item>
      {canEditBudget && <BudgetEditor plantId={plantId} drafts={budgets} />}
    </EntityFormDrawer>
  );
}
