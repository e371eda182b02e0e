import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOCALES,
  SETTING_BOUNDS,
  systemSettingsBody,
  testMailBody,
  type SystemSettings,
  type SystemSettingsBody,
} from '@solar/shared';
import { Form } from '../../../components';
import { reportSaveError } from '../../../lib/api-errors';
import { schemaRule } from '../../../lib/schema-rule';
import { useSaveSettings, useSendTestMail } from '../api/settings';

type Values = Omit<SystemSettings, 'smtp_password_set' | 'updated_at'> & { smtp_password?: string };
const shape = systemSettingsBody.shape;
type NumberKey = keyof typeof SETTING_BOUNDS;
type Unit = 'days' | 'hours' | 'minutes' | 'seconds' | 'percent' | 'wm2' | 'port';

/** The system settings form: each group a card, every rule from the shared schema. */
export function SettingsForm({ settings }: { settings: SystemSettings }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveSettings();
  const [error, setError] = useState<string | null>(null);
  const { smtp_password_set: passwordSet, updated_at: _updatedAt, ...initial } = settings;

  useEffect(() => {
    form.setFieldsValue({ ...initial, smtp_password: '' });
    // Only when the server's settings change, not on every render of the same ones.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);

  const onFinish = (v: Values) => {
    setError(null);
    const { smtp_password, ...rest } = v;
    // An empty password field keeps the stored one (the server never sends it back).
    const body: SystemSettingsBody = { ...rest, smtp_password: smtp_password ? smtp_password : null };
    save.mutate(body, { onError: (e) => reportSaveError(form, e, t, setError) });
  };

  const number = (name: NumberKey, unit: Unit) => (
    <Col xs={24} md={12}>
      <Form.Item
        name={name}
        label={t(`admin.settings.${name}`)}
        rules={[schemaRule(shape[name], t, true)]}
        extra={t('admin.settings.range', { min: SETTING_BOUNDS[name][0], max: SETTING_BOUNDS[name][1] })}
      >
        <InputNumber
          data-testid={`settings-${name}`}
          style={{ width: '100%' }}
          addonAfter={t(`admin.units.${unit}`)}
          precision={0}
        />
      </Form.Item>
    </Col>
  );

  return (
    <Form<Values> form={form} layout="vertical" onFinish={onFinish} data-testid="settings-form">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && <Alert type="error" showIcon message={error} />}
        <Card size="small" title={t('admin.settings.general')}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="site_name"
                label={t('admin.settings.site_name')}
                rules={[schemaRule(shape.site_name, t)]}
                extra={t('admin.settings.siteNameHint')}
              >
                <Input data-testid="settings-site_name" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="default_language" label={t('admin.settings.default_language')}>
                <Select
                  data-testid="settings-default_language"
                  options={LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
                />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card size="small" title={t('admin.settings.map')}>
          <Form.Item
            name="map_tile_url"
            label={t('admin.settings.map_tile_url')}
            rules={[schemaRule(shape.map_tile_url, t, true)]}
            extra={t('admin.settings.tileUrlHint')}
          >
            <Input data-testid="settings-map_tile_url" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="map_tile_attribution"
            label={t('admin.settings.map_tile_attribution')}
            rules={[schemaRule(shape.map_tile_attribution, t, true)]}
          >
            <Input autoComplete="off" />
          </Form.Item>
        </Card>
        <Card size="small" title={t('admin.settings.deviceNetworks')}>
          <Form.Item
            name="device_networks"
            label={t('admin.settings.device_networks')}
            rules={[schemaRule(shape.device_networks, t)]}
            extra={t('admin.settings.deviceNetworksHint')}
          >
            <Select
              mode="tags"
              data-testid="settings-device_networks"
              tokenSeparators={[',', ' ']}
              open={false}
              suffixIcon={null}
            />
          </Form.Item>
        </Card>
        <Card size="small" title={t('admin.settings.dataAndAlarms')}>
          <Row gutter={16}>
            {number('raw_retention_days', 'days')}
            {number('alarm_digest_interval_s', 'seconds')}
            {number('irradiance_threshold_wm2', 'wm2')}
            {number('no_production_delay_min', 'minutes')}
            {number('performance_threshold_pct', 'percent')}
            {number('performance_delay_min', 'minutes')}
          </Row>
        </Card>
        <Card size="small" title={t('admin.settings.sessions')}>
          <Row gutter={16}>
            {number('session_lifetime_h', 'hours')}
            {number('remember_lifetime_days', 'days')}
          </Row>
          <Typography.Text type="secondary">{t('admin.settings.sessionsHint')}</Typography.Text>
        </Card>
        <Card size="small" title={t('admin.settings.mail')}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="smtp_host"
                label={t('admin.settings.smtp_host')}
                rules={[schemaRule(shape.smtp_host, t)]}
                extra={t('admin.settings.smtpHostHint')}
              >
                <Input data-testid="settings-smtp_host" autoComplete="off" />
              </Form.Item>
            </Col>
            {number('smtp_port', 'port')}
            <Col xs={24} md={12}>
              <Form.Item
                name="smtp_user"
                label={t('admin.settings.smtp_user')}
                rules={[schemaRule(shape.smtp_user, t)]}
              >
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="smtp_password"
                label={t('admin.settings.smtp_password')}
                extra={t(passwordSet ? 'admin.settings.passwordKept' : 'admin.settings.passwordNone')}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="smtp_secure" label={t('admin.settings.smtp_secure')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="mail_from"
                label={t('admin.settings.mail_from')}
                rules={[schemaRule(shape.mail_from, t, true)]}
              >
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
          </Row>
          <TestMail />
        </Card>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save">
          {t('common.save')}
        </Button>
      </Space>
    </Form>
  );
}

/** "Send test mail": through the settings saved (not the ones being edited), to the admin or an address. */
function TestMail() {
  const { t } = useTranslation();
  const send = useSendTestMail();
  const [to, setTo] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const onSend = () => {
    const parsed = testMailBody.safeParse({ to: to.trim() || null });
    if (!parsed.success) {
      setInvalid(t('validation.invalidEmail'));
      return;
    }
    setInvalid(null);
    setSent(null);
    send.mutate(parsed.data, {
      onSuccess: (answer) =>
        setSent(
          t('admin.settings.testMailSent', {
            to: answer.sent_to,
            transport: t(`admin.settings.transport.${answer.transport}`),
          }),
        ),
    });
  };
  return (
    <Space wrap align="start">
      <Input
        data-testid="test-mail-to"
        placeholder={t('admin.settings.testMailTo')}
        value={to}
        onChange={(e) => setTo(e.target.value)}
        status={invalid ? 'error' : undefined}
        style={{ width: 260, maxWidth: '100%' }}
      />
      <Button onClick={onSend} loading={send.isPending} data-testid="test-mail-send">
        {t('admin.settings.sendTestMail')}
      </Button>
      {invalid && <Typography.Text type="danger">{invalid}</Typography.Text>}
      {sent && (
        <Typography.Text type="success" data-testid="test-mail-result">
          {sent}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">{t('admin.settings.testMailHint')}</Typography.Text>
    </Space>
  );
}
