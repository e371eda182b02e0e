import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useTranslation } from 'react-i18next';
import {
  DATA_TYPES,
  DEVICE_TYPES,
  REGISTER_TEMPLATE_FORMAT,
  REGISTER_TYPES,
  WORD_ORDERS,
  type CompanyRegisterTemplateBody,
  type RegisterTemplate,
  type RegisterTemplateEntry,
  type RegisterTemplateSignal,
} from '@solar/shared';
import { EntityFormDrawer, Form, useEntityForm } from '../../../components';
import { useIsAdmin } from '../../../lib/permissions';
import { useCompanyOptions } from '../../companies';
import { useSaveRegisterTemplate } from '../api/register-templates';

type SignalRow = Omit<RegisterTemplateSignal, 'unit' | 'address' | 'scale'> & {
  unit: string;
  address: number | null;
  scale: number | null;
};

interface Values {
  /** The administrator's choice of company for a new template; others save to their own. */
  company_id: number | undefined;
  id: string;
  vendor: string;
  label: string;
  device_type: RegisterTemplate['device_type'];
  source: string;
  signals: SignalRow[];
  has_strings: boolean;
  strings: { max: number | null; default: number | null; stride: number | null; signals: SignalRow[] };
  /** The alarm bit fields as JSON text: few templates have them, and their codes come from vendor tables. */
  alarm_words: string;
}

const EMPTY_SIGNAL: SignalRow = {
  key: '',
  name: '',
  unit: '',
  register_type: 'holding',
  address: null,
  data_type: 'uint16',
  word_order: 'big',
  scale: 1,
  is_counter: false,
};

const rowOf = (s: RegisterTemplateSignal): SignalRow => ({ ...s, unit: s.unit ?? '' });
const signalOf = (r: SignalRow): RegisterTemplateSignal => ({
  ...r,
  key: r.key.trim(),
  name: r.name.trim(),
  unit: r.unit.trim() === '' ? null : r.unit.trim(),
  // Left empty: refused by the server's schema, its message shown on the field.
  address: r.address ?? -1,
  scale: r.scale ?? 0,
});

function valuesOf(template: RegisterTemplate | null): Values {
  return {
    company_id: undefined,
    id: template?.id ?? '',
    vendor: template?.vendor ?? '',
    label: template?.label ?? '',
    device_type: template?.device_type ?? 'inverter',
    source: template?.source ?? '',
    signals: template ? template.signals.map(rowOf) : [{ ...EMPTY_SIGNAL }],
    has_strings: template?.strings !== undefined,
    strings: {
      max: template?.strings?.max ?? 8,
      default: template?.strings?.default ?? 2,
      stride: template?.strings?.stride ?? 2,
      signals: (template?.strings?.signals ?? []).map(rowOf),
    },
    alarm_words: JSON.stringify(template?.alarm_words ?? [], null, 2),
  };
}

/**
 * What the drawer has no field for, carried from the template it opened: each signal's `value_map` (vendor
 * states to the console's, by signal key) and the fault-code registers (`alarm_codes`). Without this, a
 * copied Sungrow or Huawei template saved from the drawer lost its state mapping and its fault alarms.
 */
function withUneditedParts(
  body: CompanyRegisterTemplateBody,
  original: RegisterTemplate | null | undefined,
): CompanyRegisterTemplateBody {
  if (!original) return body;
  const maps = new Map(
    [...original.signals, ...(original.strings?.signals ?? [])]
      .filter((s) => s.value_map)
      .map((s) => [s.key, s.value_map]),
  );
  const mapped = (signals: RegisterTemplateSignal[]) =>
    signals.map((s) => (maps.has(s.key) ? { ...s, value_map: maps.get(s.key) } : s));
  return {
    ...body,
    signals: mapped(body.signals),
    ...(body.strings ? { strings: { ...body.strings, signals: mapped(body.strings.signals) } } : {}),
    alarm_codes: original.alarm_codes,
  };
}

/** The template file as the server takes it; null when the alarm words are not JSON (shown on the field). */
function toBody(v: Values): CompanyRegisterTemplateBody | null {
  let alarmWords: unknown;
  try {
    alarmWords = JSON.parse(v.alarm_words || '[]');
  } catch {
    return null;
  }
  return {
    format: REGISTER_TEMPLATE_FORMAT,
    id: v.id.trim(),
    vendor: v.vendor.trim(),
    label: v.label.trim(),
    device_type: v.device_type,
    source: v.source.trim(),
    signals: (v.signals ?? []).map(signalOf),
    ...(v.has_strings
      ? {
          strings: {
            max: v.strings.max ?? 0,
            default: v.strings.default ?? 0,
            stride: v.strings.stride ?? 0,
            signals: (v.strings.signals ?? []).map(signalOf),
          },
        }
      : {}),
    alarm_words: alarmWords as CompanyRegisterTemplateBody['alarm_words'],
  };
}

/** The signal rows of a list (`signals`, or `strings.signals`): one small card per register. */
function SignalList({ name, testId }: { name: string | [string, string]; testId: string }) {
  const { t } = useTranslation();
  const required = [{ required: true, message: t('validation.required') }];
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <div className="register-template-signals" data-testid={testId}>
          {fields.map((field) => (
            <Card
              key={field.key}
              size="small"
              className="register-template-signal"
              data-testid={`${testId}-${field.name}`}
              extra={
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('registerTemplates.removeSignal')}
                  onClick={() => remove(field.name)}
                  data-testid={`${testId}-${field.name}-remove`}
                />
              }
              title={
                <Form.Item noStyle shouldUpdate>
                  {() => `#${field.name + 1}`}
                </Form.Item>
              }
            >
              <Row gutter={8}>
                <Col xs={12} md={6}>
                  <Form.Item name={[field.name, 'key']} label={t('signals.key')} rules={required}>
                    <Input autoComplete="off" data-testid={`${testId}-${field.name}-key`} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={10}>
                  <Form.Item name={[field.name, 'name']} label={t('signals.name')} rules={required}>
                    <Input autoComplete="off" data-testid={`${testId}-${field.name}-name`} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'unit']} label={t('signals.unit')}>
                    <Input autoComplete="off" data-testid={`${testId}-${field.name}-unit`} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'address']} label={t('signals.address')} rules={required}>
                    <InputNumber
                      className="full-width"
                      min={0}
                      max={65_535}
                      data-testid={`${testId}-${field.name}-address`}
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[field.name, 'register_type']} label={t('signals.register_type')}>
                    <Select
                      options={REGISTER_TYPES.map((v) => ({
                        value: v,
                        label: t(`signals.registerTypes.${v}`),
                      }))}
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[field.name, 'data_type']} label={t('signals.data_type')}>
                    <Select options={DATA_TYPES.map((v) => ({ value: v, label: v }))} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[field.name, 'word_order']} label={t('signals.word_order')}>
                    <Select
                      options={WORD_ORDERS.map((v) => ({ value: v, label: t(`signals.wordOrders.${v}`) }))}
                    />
                  </Form.Item>
                </Col>
                <Col xs={8} md={4}>
                  <Form.Item name={[field.name, 'scale']} label={t('signals.scale')} rules={required}>
                    <InputNumber className="full-width" data-testid={`${testId}-${field.name}-scale`} />
                  </Form.Item>
                </Col>
                <Col xs={4} md={2}>
                  <Form.Item
                    name={[field.name, 'is_counter']}
                    label={t('signals.counter')}
                    valuePropName="checked"
                  >
                    <Switch size="small" />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add({ ...EMPTY_SIGNAL })}
            data-testid={`${testId}-add`}
          >
            {t('registerTemplates.addSignal')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}

interface RegisterTemplateFormProps {
  open: boolean;
  /** The company template being edited; null with `draft` to create (a new, imported or copied one). */
  entry: RegisterTemplateEntry | null;
  draft: RegisterTemplate | null;
  onClose: () => void;
}

/**
 * Create/edit drawer of a company's own register template: what the template is, its signals, the
 * per-string signals and the alarm words, saved as the same JSON file the export gives.
 */
export function RegisterTemplateForm({ open, entry, draft, onClose }: RegisterTemplateFormProps) {
  const { t } = useTranslation();
  const entity = useEntityForm<Values>();
  const { form } = entity;
  const save = useSaveRegisterTemplate();
  const hasStrings = Form.useWatch('has_strings', form) ?? (entry?.template ?? draft)?.strings !== undefined;
  const required = [{ required: true, message: t('validation.required') }];
  const chooseCompany = useIsAdmin() && !entry;
  const companies = useCompanyOptions(chooseCompany);

  const onFinish = (values: Values) => {
    const edited = toBody(values);
    if (!edited) {
      form.setFields([{ name: 'alarm_words', errors: [t('registerTemplates.invalidJson')] }]);
      return;
    }
    const body = withUneditedParts(edited, entry?.template ?? draft);
    entity.save(
      save,
      { id: entry?.id ?? 0, body: { template: body, company_id: values.company_id } },
      onClose,
    );
  };

  return (
    <EntityFormDrawer<Values>
      entity={entity}
      resource="register-template"
      open={open}
      title={t(entry ? 'registerTemplates.edit' : 'registerTemplates.create')}
      saving={save.isPending}
      onClose={onClose}
      width={880}
      onFinish={onFinish}
      initialValues={valuesOf(entry?.template ?? draft)}
    >
      <Row gutter={16}>
        {chooseCompany && (
          <Col xs={24}>
            <Form.Item name="company_id" label={t('fields.company')} rules={required}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                options={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                loading={companies.isLoading}
                placeholder={t('management.select')}
                data-testid="register-template-field-company_id"
              />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Form.Item
            name="id"
            label={t('registerTemplates.id')}
            tooltip={t('registerTemplates.idHint')}
            rules={required}
          >
            <Input autoComplete="off" data-testid="register-template-field-id" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="vendor" label={t('registerTemplates.vendor')} rules={required}>
            <Input autoComplete="off" data-testid="register-template-field-vendor" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="label" label={t('registerTemplates.label')} rules={required}>
            <Input autoComplete="off" data-testid="register-template-field-label" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="device_type" label={t('registerTemplates.device_type')}>
            <Select
              options={DEVICE_TYPES.map((v) => ({ value: v, label: t(`devices.types.${v}`) }))}
              data-testid="register-template-field-device_type"
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="source" label={t('registerTemplates.source')} rules={required}>
            <Input.TextArea
              autoSize={{ minRows: 1, maxRows: 4 }}
              data-testid="register-template-field-source"
            />
          </Form.Item>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain>
        {t('registerTemplates.signals')}
      </Divider>
      <SignalList name="signals" testId="register-template-signal" />
      <Divider titlePlacement="start" plain>
        {t('registerTemplates.strings')}
      </Divider>
      <Form.Item name="has_strings" label={t('registerTemplates.hasStrings')} valuePropName="checked">
        <Switch data-testid="register-template-field-has_strings" />
      </Form.Item>
      {hasStrings && (
        <>
          <Typography.Paragraph type="secondary">{t('registerTemplates.stringsHint')}</Typography.Paragraph>
          <Row gutter={16}>
            <Col xs={8}>
              <Form.Item name={['strings', 'max']} label={t('registerTemplates.stringsMax')}>
                <InputNumber className="full-width" min={1} max={64} />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name={['strings', 'default']} label={t('registerTemplates.stringsDefault')}>
                <InputNumber className="full-width" min={1} max={64} />
              </Form.Item>
            </Col>
            <Col xs={8}>
              <Form.Item name={['strings', 'stride']} label={t('registerTemplates.stringsStride')}>
                <InputNumber className="full-width" min={1} />
              </Form.Item>
            </Col>
          </Row>
          <SignalList name={['strings', 'signals']} testId="register-template-string-signal" />
        </>
      )}
      <Divider titlePlacement="start" plain>
        {t('registerTemplates.alarmWords')}
      </Divider>
      <Form.Item name="alarm_words" extra={t('registerTemplates.alarmWordsHint')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 12 }}
          className="mono"
          spellCheck={false}
          data-testid="register-template-field-alarm_words"
        />
      </Form.Item>
    </EntityFormDrawer>
  );
}
