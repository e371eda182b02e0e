import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import Result from 'antd/es/result';
import MailOutlined from '@ant-design/icons/MailOutlined';
import { useTranslation } from 'react-i18next';
import { applyProblemToForm, zodRule } from '../../lib/form-rules';
import { NavLink } from '../../lib/page-nav';
import { ApiError } from '../../lib/problem';
import { lazySchema, loadAuthApi } from './api/lazy-auth-api';
import { Form, InlineMessage } from '../../components';
import { AuthLayout } from './components/auth-layout';
import type { TranslationKey } from '../../lib/i18n-keys';
import { useAsyncAction } from './use-async';

/** The failure text: too many tries says so; anything else is the spec's generic reset failure. */
function failureKey(error: unknown): TranslationKey {
  return error instanceof ApiError && error.status === 429 ? 'errors.tooManyRequests' : 'auth.forgot.failure';
}

/** /forgot-password (spec §2): an email field, a send button and a link back to login. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const mutation = useAsyncAction(async (email: string) => (await loadAuthApi()).requestPasswordReset(email));

  const onFinish = (values: { email: string }) => {
    mutation.run(values.email).catch((error: unknown) => applyProblemToForm(form, error, t));
  };

  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.description')} testId="forgot-page">
      {mutation.isSuccess ? (
        <Result
          status="success"
          className="auth-result"
          title={<span data-testid="forgot-success">{t('auth.forgot.success')}</span>}
        />
      ) : (
        <>
          {mutation.isError && (
            <InlineMessage type="error" data-testid="forgot-error">
              {t(failureKey(mutation.error))}
            </InlineMessage>
          )}
          <Form
            form={form}
            layout="vertical"
            size="large"
            requiredMark={false}
            onFinish={onFinish}
            data-testid="forgot-form"
          >
            <Form.Item name="email" label={t('auth.login.email')} rules={[zodRule(lazySchema('email'), t)]}>
              <Input
                prefix={<MailOutlined />}
                type="email"
                autoComplete="email"
                autoFocus
                data-testid="forgot-email"
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              block
              loading={mutation.isPending}
              className="auth-submit"
              data-testid="forgot-submit"
            >
              {t('auth.forgot.submit')}
            </Button>
          </Form>
        </>
      )}
      <div className="auth-footer-link">
        <NavLink to="/login" data-testid="forgot-back-to-login">
          {t('auth.forgot.backToLogin')}
        </NavLink>
      </div>
    </AuthLayout>
  );
}
