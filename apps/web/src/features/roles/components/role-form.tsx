import Alert from 'antd/es/alert';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { roleBody, type Permission, type Role } from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { orNull } from '../../../lib/form-values';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveRole } from '../api/save-role';
import { PermissionMatrix } from './permission-matrix';

interface Values {
  name: string;
  description: string;
  permissions: Permission[];
}
const shape = roleBody.shape;

interface RoleFormProps {
  open: boolean;
  role: Role | null;
  onClose: () => void;
}

/** Create/edit drawer of a role: name, description and the permission grid. */
export function RoleForm({ open, role, onClose }: RoleFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const save = useSaveRole();
  const locked = role?.is_admin ?? false;

  const onFinish = (v: Values) => {
    entity.save(
      save,
      {
        id: role?.id ?? 0,
        body: { name: v.name, description: orNull(v.description), permissions: v.permissions ?? [] },
      },
      onClose,
    );
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="role"
      open={open}
      title={t(role ? 'roles.edit' : 'roles.create')}
      saving={save.isPending}
      onClose={onClose}
      width={720}
      onFinish={onFinish}
      initialValues={{
        name: role?.name ?? '',
        description: role?.description ?? '',
        permissions: role?.permissions ?? [],
      }}
    >
      <Form.Item name="name" label={t('roles.name')} rules={[schemaRule(shape.name, t, true)]}>
        <Input data-testid="role-field-name" autoComplete="off" />
      </Form.Item>
      <Form.Item name="description" label={t('roles.description')} rules={[schemaRule(shape.description, t)]}>
        <Input.TextArea rows={2} data-testid="role-field-description" />
      </Form.Item>
      {locked && (
        <Alert type="info" showIcon title={t('roles.adminLocked')} className="management-form-note" />
      )}
      <Form.Item name="permissions" label={t('roles.permissions')}>
        <PermissionMatrix disabled={locked} />
      </Form.Item>
    </EntityFormDrawer>
  );
}
