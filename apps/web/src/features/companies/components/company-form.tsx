import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { companyBody, type Company, type CompanyBody } from '@solar/shared';
import { Form, FormDrawer } from '../../../components';
import { applyFieldErrors, errorMessageOf } from '../../../lib/api-errors';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveCompany } from '../api/save-company';

type Values = Omit<CompanyBody, 'is_active'> & { is_active: boolean };
const shape = companyBody.shape;

interface CompanyFormProps {
  open: boolean;
  company: Company | null;
  error: string | null;
  onError: (message: string | null) => void;
  onClose: () => void;
}

/** Create/edit drawer of a company: name, tax number and office, address, phone, e-mail, active. */
export function CompanyForm({ open, company, error, onError, onClose }: CompanyFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveCompany();

  const onFinish = (values: Values) => {
    onError(null);
    save.mutate(
      { id: company?.id ?? 0, body: values },
      {
        onSuccess: onClose,
        onError: (e) => {
          if (!applyFieldErrors(form, e, t)) onError(errorMessageOf(e, t));
        },
      },
    );
  };

  const text = (name: 'name' | 'tax_number' | 'tax_office' | 'phone' | 'email', required = false) => (
    <Form.Item name={name} label={t(`companies.${name}`)} rules={[schemaRule(shape[name], t, required)]}>
      <Input
        data-testid={`company-field-${name}`}
        type={name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text'}
        autoComplete="off"
      />
    </Form.Item>
  );

  return (
    <FormDrawer
      resource="company"
      open={open}
      title={t(company ? 'companies.edit' : 'companies.create')}
      saving={save.isPending}
      onClose={onClose}
      onSave={() => form.submit()}
      error={error}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        data-testid="company-form"
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
        {text('name', true)}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            {text('tax_number')}
          </Col>
          <Col xs={24} md={12}>
            {text('tax_office')}
          </Col>
          <Col xs={24} md={12}>
            {text('phone')}
          </Col>
          <Col xs={24} md={12}>
            {text('email')}
          </Col>
        </Row>
        <Form.Item name="address" label={t('companies.address')} rules={[schemaRule(shape.address, t)]}>
          <Input.TextArea rows={3} data-testid="company-field-address" />
        </Form.Item>
        <Form.Item name="is_active" label={t('management.active')} valuePropName="checked">
          <Switch data-testid="company-field-is_active" />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
