import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FAULT_PRIORITY_IDS, faultBody, type FaultBody, type FaultDetail } from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { orNull } from '../../../lib/form-values';
import { useCan } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import {
  renderSignalOption,
  SIGNAL_SEARCH,
  signalOption,
  useCatalogPlants,
  usePlantCatalog,
} from '../../telemetry';
import { useAssignees } from '../../users';
import { useSaveFault } from '../api/save-fault';
import { useFaultText } from '../fault-title';
import { priorityKey } from '../format';

interface Values {
  plant_id: number | undefined;
  device_id: number | null | undefined;
  tag_id: number | null | undefined;
  title: string;
  description: string;
  priority_id: number;
  assignee_user_id: number | null | undefined;
}

const shape = faultBody.shape;

interface FaultFormProps {
  open: boolean;
  onClose: () => void;
  /** The fault to edit; without it the drawer creates one. */
  fault?: FaultDetail;
}

/**
 * The "new fault" and "edit fault" drawer: plant → device → signal (optional), title, description,
 * priority, assignee. A fault made from an alarm shows its title in the reader's language; saved unchanged,
 * the server keeps the alarm's message code (a typed title replaces it: docs/spec-differences.md).
 */
export function FaultForm({ open, onClose, fault }: FaultFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveFault();
  const plantId = Form.useWatch('plant_id', form);
  const deviceId = Form.useWatch('device_id', form);
  const plants = useCatalogPlants();
  const devices = usePlantCatalog(plantId);
  const canSeeUsers = useCan('user_management').view;
  const assignees = useAssignees(canSeeUsers);
  const signals = (devices.data ?? []).find((d) => d.id === deviceId)?.signals ?? [];
  const faultText = useFaultText();
  const shown = fault && faultText(fault);

  const onFinish = (v: Values) => {
    const body: FaultBody = {
      plant_id: v.plant_id ?? 0,
      device_id: v.device_id ?? null,
      tag_id: v.tag_id ?? null,
      title: v.title,
      description: orNull(v.description),
      priority_id: v.priority_id,
      // The work form owns these (and the assignee of a fault); an edit sends them back as they are.
      status: fault?.status ?? 'open',
      assignee_user_id: fault ? fault.assignee_user_id : (v.assignee_user_id ?? null),
      root_cause: fault?.root_cause ?? null,
      resolution: fault?.resolution ?? null,
    };
    entity.save(save, { id: fault?.id ?? 0, body }, (saved) => {
      onClose();
      if (!fault) void navigate(`/fault-detail/${saved.id}`);
    });
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="fault"
      open={open}
      title={fault ? t('faults.page.edit') : t('faults.page.create')}
      saving={save.isPending}
      onClose={onClose}
      width={600}
      onFinish={onFinish}
      initialValues={
        fault && shown
          ? {
              plant_id: fault.plant_id,
              device_id: fault.device_id,
              tag_id: fault.tag_id,
              title: shown.title,
              description: shown.description ?? '',
              priority_id: fault.priority_id,
            }
          : { priority_id: 2, title: '', description: '', device_id: null, tag_id: null }
      }
      onValuesChange={(changed: Partial<Values>) => {
        // The device belongs to the plant and the signal to the device.
        if ('plant_id' in changed) form.setFieldsValue({ device_id: null, tag_id: null });
        if ('device_id' in changed) form.setFieldValue('tag_id', null);
      }}
    >
      <Form.Item name="plant_id" label={t('faults.page.plant')} rules={[schemaRule(shape.plant_id, t, true)]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={(plants.data ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.field_name}` }))}
          loading={plants.isLoading}
          placeholder={t('management.select')}
          data-testid="fault-field-plant_id"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="device_id" label={t('faults.page.device')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
              loading={devices.isLoading && !!plantId}
              disabled={!plantId}
              placeholder={t('faults.page.optional')}
              data-testid="fault-field-device_id"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="tag_id" label={t('faults.page.signal')}>
            <Select
              allowClear
              showSearch={SIGNAL_SEARCH}
              options={signals.map(signalOption)}
              optionRender={renderSignalOption}
              disabled={!deviceId}
              placeholder={t('faults.page.optional')}
              data-testid="fault-field-tag_id"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="title" label={t('faults.page.title')} rules={[schemaRule(shape.title, t, true)]}>
        <Input data-testid="fault-field-title" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('faults.page.description')}
        rules={[schemaRule(shape.description, t)]}
      >
        <Input.TextArea rows={4} data-testid="fault-field-description" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="priority_id"
            label={t('faults.page.priority')}
            rules={[schemaRule(shape.priority_id, t, true)]}
          >
            <Select
              options={FAULT_PRIORITY_IDS.map((p) => ({ value: p, label: t(priorityKey(p)) }))}
              data-testid="fault-field-priority_id"
            />
          </Form.Item>
        </Col>
        {!fault && (
          <Col xs={24} md={12}>
            <Form.Item name="assignee_user_id" label={t('faults.page.assignee')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                options={(assignees.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
                disabled={!canSeeUsers}
                placeholder={t('faults.page.unassigned')}
                data-testid="fault-field-assignee_user_id"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
    </EntityFormDrawer>
  );
}
