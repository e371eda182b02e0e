import Button from 'antd/es/button';
import { Form } from '../../../components';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import {
  FAULT_STATUSES,
  faultBody,
  faultTransitionAllowed,
  type FaultDetail,
  type FaultStatus,
} from '@solar/shared';
import { applyFieldErrors } from '../../../lib/api-errors';
import { orNull } from '../../../lib/form-values';
import { useCan } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import { useAssignees } from '../../users';
import { useSaveFault } from '../api/save-fault';

interface Values {
  status: FaultStatus;
  assignee_user_id: number | null | undefined;
  root_cause: string;
  resolution: string;
}

const shape = faultBody.shape;

/**
 * Status, assignee, root cause and resolution of a fault. Only the transitions FAULT_TRANSITIONS allows
 * are offered; moving to `resolved` needs a resolution, as the server checks too.
 */
export function FaultWorkForm({ fault, disabled }: { fault: FaultDetail; disabled: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveFault();
  const canSeeUsers = useCan('user_management').view;
  const assignees = useAssignees(canSeeUsers);
  const status = Form.useWatch('status', form) ?? fault.status;
  const assigneeOptions = (assignees.data ?? [])
    .filter((u) => u.company_id === null || u.company_id === fault.company_id)
    .map((u) => ({ value: u.id, label: u.name }));
  if (fault.assignee_user_id !== null && !assigneeOptions.some((o) => o.value === fault.assignee_user_id))
    assigneeOptions.push({ value: fault.assignee_user_id, label: fault.assignee_name ?? '' });

  const onFinish = (v: Values) => {
    save.mutate(
      {
        id: fault.id,
        body: {
          plant_id: fault.plant_id,
          device_id: fault.device_id,
          tag_id: fault.tag_id,
          title: fault.title,
          description: fault.description,
          priority_id: fault.priority_id,
          status: v.status,
          assignee_user_id: v.assignee_user_id ?? null,
          root_cause: orNull(v.root_cause),
          resolution: orNull(v.resolution),
        },
      },
      { onError: (e) => void applyFieldErrors(form, e, t) },
    );
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={onFinish}
      disabled={disabled}
      data-testid="fault-work-form"
      initialValues={{
        status: fault.status,
        assignee_user_id: fault.assignee_user_id,
        root_cause: fault.root_cause ?? '',
        resolution: fault.resolution ?? '',
      }}
    >
      <Form.Item name="status" label={t('faults.page.status')}>
        <Select
          options={FAULT_STATUSES.filter((s) => faultTransitionAllowed(fault.status, s)).map((s) => ({
            value: s,
            label: t(`faults.status.${s}`),
          }))}
          data-testid="fault-field-status"
        />
      </Form.Item>
      <Form.Item name="assignee_user_id" label={t('faults.page.assignee')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={assigneeOptions}
          placeholder={t('faults.page.unassigned')}
          data-testid="fault-field-assignee"
        />
      </Form.Item>
      <Form.Item
        name="root_cause"
        label={t('faults.page.rootCause')}
        rules={[schemaRule(shape.root_cause, t)]}
      >
        <Input.TextArea rows={3} data-testid="fault-field-root_cause" />
      </Form.Item>
      <Form.Item
        name="resolution"
        label={t('faults.page.resolution')}
        dependencies={['status']}
        rules={[
          schemaRule(shape.resolution, t, status === 'resolved'),
          ...(status === 'resolved'
            ? [{ required: true, whitespace: true, message: t('faults.page.resolutionRequired') }]
            : []),
        ]}
      >
        <Input.TextArea rows={3} data-testid="fault-field-resolution" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="fault-work-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}
