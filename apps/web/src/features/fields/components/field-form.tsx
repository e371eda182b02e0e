import Col from 'antd/es/col';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { fieldBody, type Field } from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { useCompanyOptions } from '../../companies';
import { toOptions } from '../../../lib/lookups';
import { orNull } from '../../../lib/form-values';
import { useCan } from '../../../lib/permissions';
import { schemaRule } from '../../../lib/schema-rule';
import { useSession } from '../../../lib/session-store';
import { useSaveField } from '../api/save-field';

interface Values {
  company_id: number | undefined;
  name: string;
  city: string;
  district: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  is_active: boolean;
}
const shape = fieldBody.shape;

interface FieldFormProps {
  open: boolean;
  field: Field | null;
  onClose: () => void;
}

/** Create/edit drawer of a field (site): company, name, city, district, address, coordinates, active. */
export function FieldForm({ open, field, onClose }: FieldFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const save = useSaveField();
  const ownCompany = useSession((s) => s.user?.company_id ?? undefined);
  const companies = useCompanyOptions(useCan('company_management').view);
  const companyOptions = toOptions(companies.data);
  if (field && !companyOptions.some((o) => o.value === field.company_id))
    companyOptions.push({ value: field.company_id, label: field.company_name });

  const onFinish = (values: Values) => {
    const body = {
      company_id: values.company_id ?? 0,
      name: values.name,
      city: orNull(values.city),
      district: orNull(values.district),
      address: orNull(values.address),
      latitude: orNull(values.latitude),
      longitude: orNull(values.longitude),
      is_active: values.is_active,
    };
    entity.save(save, { id: field?.id ?? 0, body }, onClose);
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="field"
      open={open}
      title={t(field ? 'fields.edit' : 'fields.create')}
      saving={save.isPending}
      onClose={onClose}
      onFinish={onFinish}
      initialValues={{
        company_id: field?.company_id ?? ownCompany,
        name: field?.name ?? '',
        city: field?.city ?? '',
        district: field?.district ?? '',
        address: field?.address ?? '',
        latitude: field?.latitude ?? null,
        longitude: field?.longitude ?? null,
        is_active: field?.is_active ?? true,
      }}
    >
      <Form.Item
        name="company_id"
        label={t('fields.company')}
        rules={[schemaRule(shape.company_id, t, true)]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={companyOptions}
          loading={companies.isLoading}
          placeholder={t('management.select')}
          data-testid="field-field-company_id"
        />
      </Form.Item>
      <Form.Item name="name" label={t('fields.name')} rules={[schemaRule(shape.name, t, true)]}>
        <Input data-testid="field-field-name" autoComplete="off" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="city" label={t('fields.city')} rules={[schemaRule(shape.city, t)]}>
            <Input data-testid="field-field-city" autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="district" label={t('fields.district')} rules={[schemaRule(shape.district, t)]}>
            <Input data-testid="field-field-district" autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="address" label={t('fields.address')} rules={[schemaRule(shape.address, t)]}>
        <Input.TextArea rows={2} data-testid="field-field-address" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="latitude"
            label={t('location.latitude')}
            tooltip={t('location.latitudeHint')}
            rules={[schemaRule(shape.latitude, t)]}
          >
            <InputNumber
              className="full-width"
              step={0.000001}
              placeholder="41.0082"
              data-testid="field-field-latitude"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="longitude"
            label={t('location.longitude')}
            tooltip={t('location.longitudeHint')}
            rules={[schemaRule(shape.longitude, t)]}
          >
            <InputNumber
              className="full-width"
              step={0.000001}
              placeholder="28.9784"
              data-testid="field-field-longitude"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
        <Switch data-testid="field-field-is_active" />
      </Form.Item>
    </EntityFormDrawer>
  );
}
