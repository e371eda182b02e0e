import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { companyBody, type Company, type CompanyBody } from '@solar/shared';
import { EntityFormDrawer, Form, TextField, useEntityForm } from '../../../components';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveCompany } from '../api/save-company';

type Values = Omit<CompanyBody, 'is_active'> & { is_active: boolean };
const shape = companyBody.shape;

interface CompanyFormProps {
  open: boolean;
  company: Company | null;
  onClose: () => void;
}

/** Create/edit drawer of a company: name, tax number and office, address, phone, e-mail, active. */
export function CompanyForm({ open, company, onClose }: CompanyFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const save = useSaveCompany();

  const onFinish = (values: Values) => entity.save(save, { id: company?.id ?? 0, body: values }, onClose);

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="company"
      open={open}
      title={t(company ? 'companies.edit' : 'companies.create')}
      saving={save.isPending}
      onClose={onClose}
      onFinish={onFinish}
      initialValues={{
        name: company?.name ?? '',
        tax_number: company?.tax_number ?? '',
        tax_office: company?.tax_office ?? '',
        address: company?.address ?? '',
        phone: company?.phone ?? '',
        email: company?.email ?? '',
        is_active: company?.is_active ?? true,
      }}
    >
      <TextField name="name" label={t('companies.name')} schema={shape.name} required />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <TextField name="tax_number" label={t('companies.tax_number')} schema={shape.tax_number} />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="tax_office" label={t('companies.tax_office')} schema={shape.tax_office} />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="phone" label={t('companies.phone')} schema={shape.phone} type="tel" />
        </Col>
        <Col xs={24} md={12}>
          <TextField name="email" label={t('companies.email')} schema={shape.email} type="email" />
        </Col>
      </Row>
      <Form.Item name="address" label={t('companies.address')} rules={[schemaRule(shape.address, t)]}>
        <Input.TextArea rows={3} data-testid="company-field-address" />
      </Form.Item>
      <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
        <Switch data-testid="company-field-is_active" />
      </Form.Item>
    </EntityFormDrawer>
  );
}
