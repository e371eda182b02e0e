import { useState } from 'react';
import Col from 'antd/es/col';
import DatePicker from 'antd/es/date-picker';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  ALARM_OPERANTS,
  ALARM_PRIORITIES,
  customAlarmBody,
  type AlarmOperant,
  type CustomAlarm,
  type CustomAlarmBody,
} from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { orNull } from '../../../lib/form-values';
import { schemaRule } from '../../../lib/schema-rule';
import {
  renderSignalOption,
  SIGNAL_SEARCH,
  signalOption,
  useCatalogPlants,
  usePlantCatalog,
} from '../../telemetry';
import { useSaveCustomAlarm } from '../api/save-custom-alarm';
import { priorityKey } from '../../alarms';
import { dateBounds } from '../../../lib/date-bounds';
import { fromPlantClock, toPlantClock } from '../../../lib/plant-clock-picker';
import { browserTimeZone, zoneLabel } from '../../../lib/plant-time';
import { PlantClockNote } from '../../../lib/plant-time-view';

interface Values {
  plant_id: number | undefined;
  device_id: number | undefined;
  tag_id: number | undefined;
  name: string;
  description: string;
  priority_id: number;
  operant: AlarmOperant;
  value: number | null;
  window: [Dayjs | null, Dayjs | null] | null;
  on_delay_s: number | null;
  hysteresis: number | null;
  off_delay_s: number | null;
  is_active: boolean;
}

const shape = customAlarmBody.shape;

interface CustomAlarmFormProps {
  open: boolean;
  rule: CustomAlarm | null;
  onClose: () => void;
}

/**
 * Create/edit drawer of a custom alarm rule: the signal (plant → device → signal from the catalog),
 * operant and threshold in the signal's unit, priority, active window, on-delay, hysteresis, off-delay.
 */
export function CustomAlarmForm({ open, rule, onClose }: CustomAlarmFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveCustomAlarm();
  const plantId = Form.useWatch('plant_id', form) ?? rule?.plant_id;
  const deviceId = Form.useWatch('device_id', form) ?? rule?.device_id;
  const tagId = Form.useWatch('tag_id', form) ?? rule?.tag_id;
  const plants = useCatalogPlants();
  const devices = usePlantCatalog(plantId);
  const signals = (devices.data ?? []).find((d) => d.id === deviceId)?.signals ?? [];
  const unit = signals.find((s) => s.id === tagId)?.unit ?? (tagId === rule?.tag_id ? rule?.unit : null);
  // The window is entered on the plant's clock (the engine compares instants, so any clock would do; the
  // plant's is the one its operators speak); before a plant is chosen the browser's stands in.
  const timeZone =
    (plants.data ?? []).find((p) => p.id === plantId)?.time_zone ??
    (plantId === rule?.plant_id ? rule?.plant_time_zone : undefined) ??
    browserTimeZone();
  // Whether the clocks differ is judged once, at the drawer's opening (a label needs no live clock).
  const [openedAt] = useState(() => Date.now());

  const onFinish = (v: Values) => {
    const body: CustomAlarmBody = {
      name: v.name,
      description: orNull(v.description),
      priority_id: v.priority_id,
      tag_id: v.tag_id ?? 0,
      operant: v.operant,
      value: v.value ?? Number.NaN,
      started_at: v.window?.[0] ? fromPlantClock(v.window[0], timeZone) : null,
      end_at: v.window?.[1] ? fromPlantClock(v.window[1], timeZone) : null,
      is_active: v.is_active,
      on_delay_s: v.on_delay_s ?? 0,
      hysteresis: v.hysteresis ?? 0,
      off_delay_s: v.off_delay_s ?? 0,
    };
    entity.save(save, { id: rule?.id ?? 0, body }, onClose);
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="custom-alarm"
      open={open}
      title={t(rule ? 'customAlarms.edit' : 'customAlarms.create')}
      saving={save.isPending}
      onClose={onClose}
      width={640}
      onFinish={onFinish}
      onValuesChange={(changed: Partial<Values>) => {
        // The device belongs to the plant and the signal to the device.
        if ('plant_id' in changed) form.setFieldsValue({ device_id: undefined, tag_id: undefined });
        if ('device_id' in changed) form.setFieldValue('tag_id', undefined);
      }}
      initialValues={{
        plant_id: rule?.plant_id,
        device_id: rule?.device_id,
        tag_id: rule?.tag_id,
        name: rule?.name ?? '',
        description: rule?.description ?? '',
        priority_id: rule?.priority_id ?? 3,
        operant: rule?.operant ?? '>',
        value: rule?.value ?? null,
        window:
          rule && (rule.started_at || rule.end_at)
            ? [
                toPlantClock(rule.started_at, rule.plant_time_zone),
                toPlantClock(rule.end_at, rule.plant_time_zone),
              ]
            : null,
        on_delay_s: rule?.on_delay_s ?? 0,
        hysteresis: rule?.hysteresis ?? 0,
        off_delay_s: rule?.off_delay_s ?? 0,
        is_active: rule?.is_active ?? true,
      }}
    >
      <Form.Item name="name" label={t('customAlarms.name')} rules={[schemaRule(shape.name, t, true)]}>
        <Input data-testid="custom-alarm-field-name" autoComplete="off" />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('customAlarms.signal')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item
            name="plant_id"
            label={t('customAlarms.plant')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              loading={plants.isLoading}
              placeholder={t('management.select')}
              data-testid="custom-alarm-field-plant_id"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="device_id"
            label={t('customAlarms.device')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
              loading={devices.isLoading && !!plantId}
              disabled={!plantId}
              placeholder={t('management.select')}
              data-testid="custom-alarm-field-device_id"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="tag_id" label={t('customAlarms.tag')} rules={[schemaRule(shape.tag_id, t, true)]}>
            <Select
              showSearch={SIGNAL_SEARCH}
              options={signals.map(signalOption)}
              optionRender={renderSignalOption}
              disabled={!deviceId}
              placeholder={t('management.select')}
              data-testid="custom-alarm-field-tag_id"
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={10} md={6}>
          <Form.Item
            name="operant"
            label={t('customAlarms.operant')}
            rules={[schemaRule(shape.operant, t, true)]}
          >
            <Select
              options={ALARM_OPERANTS.map((o) => ({ value: o, label: o }))}
              data-testid="custom-alarm-field-operant"
            />
          </Form.Item>
        </Col>
        <Col xs={14} md={10}>
          <Form.Item name="value" label={t('customAlarms.value')} rules={[schemaRule(shape.value, t, true)]}>
            <InputNumber
              className="full-width"
              suffix={unit ?? undefined}
              data-testid="custom-alarm-field-value"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="priority_id"
            label={t('customAlarms.priority')}
            rules={[schemaRule(shape.priority_id, t, true)]}
          >
            <Select
              options={ALARM_PRIORITIES.map((p) => ({ value: p, label: t(priorityKey(p)) }))}
              data-testid="custom-alarm-field-priority_id"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="window"
        label={t('customAlarms.window')}
        tooltip={t('customAlarms.windowHint')}
        extra={<PlantClockNote zone={zoneLabel(timeZone, [openedAt])} testId="custom-alarm-window-zone" />}
      >
        <DatePicker.RangePicker
          {...dateBounds}
          showTime
          allowEmpty={[true, true]}
          className="full-width"
          data-testid="custom-alarm-field-window"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item
            name="on_delay_s"
            label={t('customAlarms.onDelay')}
            tooltip={t('customAlarms.onDelayHint')}
            rules={[schemaRule(shape.on_delay_s, t)]}
          >
            <InputNumber
              className="full-width"
              min={0}
              suffix="s"
              data-testid="custom-alarm-field-on_delay_s"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="hysteresis"
            label={t('customAlarms.hysteresis')}
            tooltip={t('customAlarms.hysteresisHint')}
            rules={[schemaRule(shape.hysteresis, t)]}
          >
            <InputNumber
              className="full-width"
              min={0}
              suffix={unit ?? undefined}
              data-testid="custom-alarm-field-hysteresis"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="off_delay_s"
            label={t('customAlarms.offDelay')}
            tooltip={t('customAlarms.offDelayHint')}
            rules={[schemaRule(shape.off_delay_s, t)]}
          >
            <InputNumber
              className="full-width"
              min={0}
              suffix="s"
              data-testid="custom-alarm-field-off_delay_s"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="description"
        label={t('customAlarms.description')}
        rules={[schemaRule(shape.description, t)]}
      >
        <Input.TextArea rows={3} data-testid="custom-alarm-field-description" />
      </Form.Item>
      <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
        <Switch data-testid="custom-alarm-field-is_active" />
      </Form.Item>
    </EntityFormDrawer>
  );
}
