import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGE_IDS,
  UNIT_TYPES,
  passwordField,
  userUpsertBody,
  type User,
  type UserUnit,
  type UserUpsertBody,
} from '@solar/shared';
import { EntityFormDrawer, Form, TextField, useEntityForm } from '../../../components';
import { useCompanyOptions } from '../../companies';
import { useFieldOptions } from '../../fields';
import { usePlantOptions } from '../../plants';
import { useRoleOptions } from '../../roles';
import { toOptions } from '../../../lib/lookups';
import { useCan, useIsAdmin } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import { useSession } from '../../../lib/session-store';
import { useSaveUser } from '../api/save-user';

interface Values {
  name: string;
  surname: string;
  username: string;
  email: string;
  telephone: string;
  role_id: number | undefined;
  company_id: number | null | undefined;
  language_id: number;
  is_active: boolean;
  units: string[];
  password: string;
}
const shape = userUpsertBody.shape;
const password = passwordField();

const unitValue = (u: UserUnit) => `${u.unit_type}:${u.unit_id}`;
function unitOf(value: string): UserUnit | null {
  const [type, id] = value.split(':');
  const unit_type = UNIT_TYPES.find((u) => u === type);
  return unit_type && Number(id) > 0 ? { unit_type, unit_id: Number(id) } : null;
}

interface UserFormProps {
  open: boolean;
  user: User | null;
  /** Roles seen in the user list: the role select still works without role_management view. */
  knownRoles: { id: number; name: string }[];
  onClose: () => void;
}

/**
 * Create/edit drawer of a user: identity, role, company (admin only), language, active, the units
 * (companies, fields, plants) the user is limited to, and a password when creating.
 */
export function UserForm({ open, user, knownRoles, onClose }: UserFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveUser();
  const isAdmin = useIsAdmin();
  const ownCompany = useSession((s) => s.user?.company_id ?? null);
  const chosenCompany = Form.useWatch('company_id', form);
  const companyId = isAdmin ? (chosenCompany ?? user?.company_id ?? null) : ownCompany;

  const canSeeCompanies = useCan('company_management').view;
  const companies = useCompanyOptions(canSeeCompanies);
  const roles = useRoleOptions(useCan('role_management').view);
  const fields = useFieldOptions(companyId, useCan('field_management').view && companyId !== null);
  const plants = usePlantOptions({ companyId }, useCan('plant_management').view && companyId !== null);

  const roleOptions = toOptions(roles.data ?? knownRoles);
  if (user && !roleOptions.some((o) => o.value === user.roleId))
    roleOptions.push({ value: user.roleId, label: user.role_name });
  const companyName = companies.data?.find((c) => c.id === companyId)?.name ?? t('users.ownCompany');
  const unitOptions =
    companyId === null
      ? []
      : [
          {
            label: t('users.unitTypes.company'),
            options: [{ value: `company:${companyId}`, label: companyName }],
          },
          {
            label: t('users.unitTypes.field'),
            options: (fields.data ?? []).map((f) => ({ value: `field:${f.id}`, label: f.name })),
          },
          {
            label: t('users.unitTypes.plant'),
            options: (plants.data ?? []).map((p) => ({
              value: `plant:${p.id}`,
              label: `${p.name} · ${p.field_name}`,
            })),
          },
        ];

  const onFinish = (v: Values) => {
    const body: UserUpsertBody = {
      name: v.name,
      surname: v.surname,
      username: v.username,
      email: v.email,
      telephone: v.telephone,
      language_id: v.language_id,
      is_active: v.is_active,
      role_id: v.role_id ?? 0,
      user_units: (v.units ?? []).map(unitOf).filter((u): u is UserUnit => u !== null),
      ...(isAdmin ? { company_id: v.company_id ?? null } : {}),
      ...(user ? {} : { password: v.password }),
    };
    entity.save(save, { id: user?.id ?? 0, body }, onClose);
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="user"
      open={open}
      title={t(user ? 'users.edit' : 'users.create')}
      saving={save.isPending}
      onClose={onClose}
      width={640}
      onFinish={onFinish}
      onValuesChange={(changed: Partial<Values>) => {
        // Units belong to the user's company: another company clears them.
        if ('company_id' in changed) form.setFieldValue('units', []);
      }}
      initialValues={{
        name: user?.name ?? '',
        surname: user?.surname ?? '',
        username: user?.username ?? '',
        email: user?.email ?? '',
        telephone: user?.telephone ?? '',
        role_id: user?.roleId,
        company_id: user ? user.company_id : isAdmin ? undefined : ownCompany,
        language_id: user?.language_id ?? 1,
        is_active: user?.is_active ?? true,
        units: (user?.user_units ?? []).map(unitValue),
        password: '',
      }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <TextField name="name" label={t('users.name')} schema={shape.name} required />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="surname" label={t('users.surname')} schema={shape.surname} required />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="username" label={t('users.username')} schema={shape.username} required />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="email" label={t('users.email')} schema={shape.email} required type="email" />
        </Col>
        <Col xs={24} md={12}>
          <TextField
            name="telephone"
            label={t('users.telephone')}
            schema={shape.telephone}
            required
            type="tel"
          />
        </Col>
        {!user && (
          <Col xs={24} md={12}>
            <Form.Item name="password" label={t('users.password')} rules={[schemaRule(password, t, true)]}>
              <Input.Password autoComplete="new-password" data-testid="user-field-password" />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Form.Item name="role_id" label={t('users.role')} rules={[schemaRule(shape.role_id, t, true)]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={roleOptions}
              placeholder={t('management.select')}
              data-testid="user-field-role_id"
            />
          </Form.Item>
        </Col>
        {isAdmin && (
          <Col xs={24} md={12}>
            <Form.Item name="company_id" label={t('users.company')} tooltip={t('users.companyHint')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                options={toOptions(companies.data)}
                placeholder={t('users.allCompanies')}
                data-testid="user-field-company_id"
              />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Form.Item name="language_id" label={t('users.language')}>
            <Select
              options={Object.entries(LANGUAGE_IDS).map(([id, locale]) => ({
                value: Number(id),
                label: t(`languages.${locale}`),
              }))}
              data-testid="user-field-language_id"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
            <Switch data-testid="user-field-is_active" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="units" label={t('users.units')} tooltip={t('users.unitsHint')}>
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={unitOptions}
          disabled={companyId === null}
          placeholder={t(companyId === null ? 'users.unitsNeedCompany' : 'users.unitsAll')}
          data-testid="user-field-user_units"
        />
      </Form.Item>
    </EntityFormDrawer>
  );
}
