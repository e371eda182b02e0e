import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import LockOutlined from '@ant-design/icons/LockOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import { useTranslation } from 'react-i18next';
import { E } from '@solar/shared';
import { applyProblemToForm, zodRule } from '../../lib/form-rules';
import { NavLink, usePageNav } from '../../lib/page-nav';
import { ApiError } from '../../lib/problem';
import { lazySchema, loadAuthApi } from './api/lazy-auth-api';
import { Form, InlineMessage } from '../../components';
import { AuthLayout } from './components/auth-layout';
import { knownKey, type TranslationKey } from '../../lib/i18n-keys';
import { useAsyncAction } from './use-async';

interface LoginValues {
  email: string;
  password: string;
  remember: boolean;
}

/** Message key of a failed login: the server's key (wrong credentials, too many tries…) or a generic one. */
function loginErrorKey(error: unknown): TranslationKey {
  if (error instanceof ApiError) return error.messageKey;
  return E.internal;
}

/** /login (spec §2): email, password, remember me, forgot-password link, slider behind. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginValues>();
  const flash = (usePageNav().state as { flash?: string } | null)?.flash;
  const mutation = useAsyncAction(async (values: LoginValues) => (await loadAuthApi()).login(values));

  const onFinish = (values: LoginValues) => {
    mutation.run(values).catch((error: unknown) => applyProblemToForm(form, error, t));
  };

  return (
    <AuthLayout title={t('auth.login.title')} subtitle={t('auth.login.subtitle')} testId="login-page">
      {flash && !mutation.isError && (
        <InlineMessage type="success" data-testid="login-flash">
          {t(knownKey(flash, 'common.success'))}
        </InlineMessage>
      )}
      {mutation.isError && (
        <InlineMessage type="error" data-testid="login-error">
          {t(loginErrorKey(mutation.error))}
        </InlineMessage>
      )}
      <Form<LoginValues>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ remember: false }}
        onFinish={onFinish}
        onValuesChange={() => mutation.isError && mutation.reset()}
        data-testid="login-form"
      >
        <Form.Item name="email" label={t('auth.login.email')} rules={[zodRule(lazySchema('email'), t)]}>
          <Input
            prefix={<MailOutlined />}
            type="email"
            autoComplete="username"
            autoFocus
            data-testid="login-email"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.login.password')}
          rules={[zodRule(lazySchema('loginPassword'), t)]}
        >
          <Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
        </Form.Item>
        <div className="auth-row">
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox data-testid="login-remember">{t('auth.login.remember')}</Checkbox>
          </Form.Item>
          <NavLink to="/forgot-password" data-testid="login-forgot">
            {t('auth.login.forgot')}
          </NavLink>
        </div>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={mutation.isPending}
          className="auth-submit"
          data-testid="login-submit"
        >
          {t('auth.login.submit')}
        </Button>
      </Form>
    </AuthLayout>
  );
}
