import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import {
  BAUD_RATES,
  DEVICE_TYPES,
  PROTOCOLS,
  deviceBody,
  serialPathField,
  type Device,
  type DeviceBody,
  type DeviceType,
  type Protocol,
} from '@solar/shared';
import { EntityFormDrawer, Form, TextField, useEntityForm } from '../../../components';
import { useDeviceOptions } from '../api/get-device-options';
import { usePlantOptions } from '../../plants';
import { orNull } from '../../../lib/form-values';
import { useCan } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveDevice } from '../api/save-device';
import { IngestKeySection } from './ingest-key-section';

type RtuLink = 'serial' | 'gateway';

interface Values {
  plant_id: number | undefined;
  parent_device_id: number | null | undefined;
  name: string;
  type: DeviceType;
  brand: string;
  model: string;
  serial_number: string;
  rated_power_kw: number | null;
  protocol: Protocol;
  ip: string;
  port: number | null;
  slave_id: number | null;
  baud_rate: number | undefined;
  /** Modbus RTU: on a serial port of the server, or through an RTU-over-TCP gateway (ip and port). */
  rtu_link: RtuLink;
  serial_path: string;
  mqtt_topic: string;
  poll_interval_s: number | null;
  snapshot_url: string;
  stream_url: string;
  is_active: boolean;
}

/** Field schemas of the shared contract: the common ones and each protocol's settings. */
const [tcp, rtu, mqtt] = deviceBody.options;
const base = tcp.shape;

/** The body of POST devices/{id}: the common fields and only the chosen protocol's settings. */
function toBody(v: Values): DeviceBody {
  const common = {
    plant_id: v.plant_id ?? 0,
    parent_device_id: v.parent_device_id ?? null,
    name: v.name,
    type: v.type,
    brand: orNull(v.brand),
    model: orNull(v.model),
    serial_number: orNull(v.serial_number),
    rated_power_kw: orNull(v.rated_power_kw),
    poll_interval_s: v.poll_interval_s ?? 60,
    snapshot_url: v.type === 'camera' ? orNull(v.snapshot_url) : null,
    stream_url: v.type === 'camera' ? orNull(v.stream_url) : null,
    is_active: v.is_active,
  };
  switch (v.protocol) {
    case 'modbus_tcp':
      return {
        ...common,
        protocol: v.protocol,
        ip: v.ip.trim(),
        port: v.port ?? 502,
        slave_id: v.slave_id ?? 1,
      };
    case 'modbus_rtu': {
      const rtuCommon = {
        ...common,
        protocol: v.protocol,
        slave_id: v.slave_id ?? 1,
        baud_rate: v.baud_rate ?? 9600,
      };
      return v.rtu_link === 'serial'
        ? { ...rtuCommon, serial_path: v.serial_path.trim(), ip: null, port: null }
        : { ...rtuCommon, serial_path: null, ip: v.ip.trim(), port: v.port ?? 502 };
    }
    case 'mqtt':
      return { ...common, protocol: v.protocol, mqtt_topic: v.mqtt_topic };
    default:
      return { ...common, protocol: 'http' };
  }
}

/** A device's RTU link as saved: a serial path, or a gateway's address; serial for a new one. */
const rtuLinkOf = (device: Device | null): RtuLink =>
  device?.protocol === 'modbus_rtu' && device.serial_path === null && device.ip !== null
    ? 'gateway'
    : 'serial';

interface DeviceFormProps {
  open: boolean;
  device: Device | null;
  onClose: () => void;
}

/**
 * Create/edit drawer of a device: plant and parent device, type, brand/model/serial, rated power, the
 * connection settings of the chosen protocol only, poll interval and, for cameras, the image URLs.
 */
export function DeviceForm({ open, device, onClose }: DeviceFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveDevice();
  const protocol = Form.useWatch('protocol', form) ?? device?.protocol ?? 'modbus_tcp';
  const rtuLink = Form.useWatch('rtu_link', form) ?? rtuLinkOf(device);
  // Where the IP address and port are asked for: Modbus TCP, and Modbus RTU through a gateway.
  const hasAddress = protocol === 'modbus_tcp' || (protocol === 'modbus_rtu' && rtuLink === 'gateway');
  const type = Form.useWatch('type', form) ?? device?.type ?? 'inverter';
  const plantId = Form.useWatch('plant_id', form) ?? device?.plant_id;
  const plants = usePlantOptions({}, useCan('plant_management').view);
  const canUpdate = useCan('device_management').update;
  const plantOptions = (plants.data ?? []).map((p) => ({
    value: p.id,
    label: `${p.name} · ${p.field_name}`,
  }));
  if (device && !plantOptions.some((o) => o.value === device.plant_id))
    plantOptions.push({ value: device.plant_id, label: device.plant_name });
  const parents = useDeviceOptions(plantId);
  const parentOptions = (parents.data ?? [])
    .filter((d) => d.id !== device?.id)
    .map((d) => ({ value: d.id, label: `${d.name} · ${t(`devices.types.${d.type}`)}` }));

  const onFinish = (values: Values) =>
    entity.save(save, { id: device?.id ?? 0, body: toBody(values) }, onClose);

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="device"
      open={open}
      title={t(device ? 'devices.edit' : 'devices.create')}
      saving={save.isPending}
      onClose={onClose}
      width={640}
      onFinish={onFinish}
      after={
        device && canUpdate && <IngestKeySection deviceId={device.id} timeZone={device.plant_time_zone} />
      }
      onValuesChange={(changed: Partial<Values>) => {
        // A parent belongs to the same plant: moving the device clears it.
        if ('plant_id' in changed) form.setFieldValue('parent_device_id', null);
      }}
      initialValues={{
        plant_id: device?.plant_id,
        parent_device_id: device?.parent_device_id ?? null,
        name: device?.name ?? '',
        type: device?.type ?? 'inverter',
        brand: device?.brand ?? '',
        model: device?.model ?? '',
        serial_number: device?.serial_number ?? '',
        rated_power_kw: device?.rated_power_kw ?? null,
        protocol: device?.protocol ?? 'modbus_tcp',
        ip: device?.ip ?? '',
        port: device?.port ?? 502,
        slave_id: device?.slave_id ?? 1,
        baud_rate: device?.baud_rate ?? 9600,
        rtu_link: rtuLinkOf(device),
        serial_path: device?.serial_path ?? '',
        mqtt_topic: device?.mqtt_topic ?? '',
        poll_interval_s: device?.poll_interval_s ?? 60,
        snapshot_url: device?.snapshot_url ?? '',
        stream_url: device?.stream_url ?? '',
        is_active: device?.is_active ?? true,
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="plant_id" label={t('devices.plant')} rules={[schemaRule(base.plant_id, t, true)]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={plantOptions}
              loading={plants.isLoading}
              placeholder={t('management.select')}
              data-testid="device-field-plant_id"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="parent_device_id"
            label={t('devices.parent_device_id')}
            tooltip={t('devices.parentHint')}
          >
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={parentOptions}
              loading={parents.isLoading && !!plantId}
              disabled={!plantId}
              placeholder={t('devices.noParent')}
              data-testid="device-field-parent_device_id"
            />
          </Form.Item>
        </Col>
      </Row>
      <TextField name="name" label={t('devices.name')} schema={base.name} required />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="type" label={t('devices.type')} rules={[schemaRule(base.type, t, true)]}>
            <Select
              options={DEVICE_TYPES.map((v) => ({ value: v, label: t(`devices.types.${v}`) }))}
              data-testid="device-field-type"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="rated_power_kw"
            label={t('devices.rated_power_kw')}
            rules={[schemaRule(base.rated_power_kw, t)]}
          >
            <InputNumber className="full-width" data-testid="device-field-rated_power_kw" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <TextField name="brand" label={t('devices.brand')} schema={base.brand} />
        </Col>
        <Col xs={24} md={8}>
          <TextField name="model" label={t('devices.model')} schema={base.model} />
        </Col>
        <Col xs={24} md={8}>
          <TextField name="serial_number" label={t('devices.serial_number')} schema={base.serial_number} />
        </Col>
      </Row>
      {type === 'camera' && (
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="snapshot_url"
              label={t('devices.snapshot_url')}
              rules={[schemaRule(base.snapshot_url, t)]}
            >
              <Input placeholder="https://" data-testid="device-field-snapshot_url" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="stream_url"
              label={t('devices.stream_url')}
              rules={[schemaRule(base.stream_url, t)]}
            >
              <Input placeholder="rtsp://" data-testid="device-field-stream_url" autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
      )}
      <Divider titlePlacement="start" plain>
        {t('devices.connection')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="protocol"
            label={t('devices.protocol')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Select
              options={PROTOCOLS.map((v) => ({ value: v, label: t(`devices.protocols.${v}`) }))}
              data-testid="device-field-protocol"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="poll_interval_s"
            label={t('devices.poll_interval_s')}
            rules={[schemaRule(base.poll_interval_s, t)]}
          >
            <InputNumber className="full-width" min={1} data-testid="device-field-poll_interval_s" />
          </Form.Item>
        </Col>
        {protocol === 'modbus_rtu' && (
          <>
            <Col xs={24} md={12}>
              <Form.Item name="rtu_link" label={t('devices.rtu_link')}>
                <Radio.Group
                  optionType="button"
                  data-testid="device-field-rtu_link"
                  options={(['serial', 'gateway'] as const).map((value) => ({
                    value,
                    label: t(`devices.rtuLinks.${value}`),
                  }))}
                />
              </Form.Item>
            </Col>
            {rtuLink === 'serial' && (
              <Col xs={24} md={12}>
                <Form.Item
                  name="serial_path"
                  label={t('devices.serial_path')}
                  rules={[schemaRule(serialPathField(), t, true)]}
                >
                  <Input
                    placeholder="/dev/ttyUSB0"
                    data-testid="device-field-serial_path"
                    autoComplete="off"
                  />
                </Form.Item>
              </Col>
            )}
          </>
        )}
        {hasAddress && (
          <>
            <Col xs={24} md={12}>
              <Form.Item name="ip" label={t('devices.ip')} rules={[schemaRule(tcp.shape.ip, t, true)]}>
                <Input placeholder="192.168.1.10" data-testid="device-field-ip" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="port" label={t('devices.port')} rules={[schemaRule(tcp.shape.port, t, true)]}>
                <InputNumber className="full-width" data-testid="device-field-port" />
              </Form.Item>
            </Col>
          </>
        )}
        {(protocol === 'modbus_tcp' || protocol === 'modbus_rtu') && (
          <Col xs={12} md={6}>
            <Form.Item
              name="slave_id"
              label={t('devices.slave_id')}
              rules={[schemaRule((protocol === 'modbus_rtu' ? rtu : tcp).shape.slave_id, t, true)]}
            >
              <InputNumber className="full-width" data-testid="device-field-slave_id" />
            </Form.Item>
          </Col>
        )}
        {protocol === 'modbus_rtu' && (
          <Col xs={24} md={12}>
            <Form.Item
              name="baud_rate"
              label={t('devices.baud_rate')}
              rules={[schemaRule(rtu.shape.baud_rate, t, true)]}
            >
              <Select
                options={BAUD_RATES.map((v) => ({ value: v, label: String(v) }))}
                data-testid="device-field-baud_rate"
              />
            </Form.Item>
          </Col>
        )}
        {protocol === 'mqtt' && (
          <Col xs={24}>
            <Form.Item
              name="mqtt_topic"
              label={t('devices.mqtt_topic')}
              rules={[schemaRule(mqtt.shape.mqtt_topic, t, true)]}
            >
              <Input
                placeholder="plants/1/inverter-1"
                data-testid="device-field-mqtt_topic"
                autoComplete="off"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
        <Switch data-testid="device-field-is_active" />
      </Form.Item>
    </EntityFormDrawer>
  );
}
