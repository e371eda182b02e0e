import { useCallback, useState } from 'react';
import Button from 'antd/es/button';
import Password from 'antd/es/input/Password';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import LockOutlined from '@ant-design/icons/LockOutlined';
import { useTranslation } from 'react-i18next';
import { E, V } from '@solar/shared';
import { applyProblemToForm, sameAsRule, zodRule } from '../../lib/form-rules';
import { NavLink, usePageNav } from '../../lib/page-nav';
import { ApiError } from '../../lib/problem';
import { lazySchema, loadAuthApi } from './api/lazy-auth-api';
import { Form, InlineMessage } from '../../components';
import { AuthLayout } from './components/auth-layout';
import { useAsyncAction, useAsyncLoad } from './use-async';

interface ResetValues {
  password: string;
  repeat: string;
}

/** True when a failure means the link is expired, used or unknown. */
const linkInvalid = (error: unknown) =>
  error instanceof ApiError && (error.messageKey === E.resetLinkInvalid || error.status === 404);

/** /reset-password/:guid (spec §2): checks the link, then asks for the new password twice. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { navigate, params } = usePageNav();
  const guid = params.guid ?? '';
  const [form] = Form.useForm<ResetValues>();
  const [invalidAfterSubmit, setInvalidAfterSubmit] = useState(false);
  const check = useAsyncLoad(useCallback(async () => (await loadAuthApi()).checkResetLink(guid), [guid]));
  const mutation = useAsyncAction(async (password: string) =>
    (await loadAuthApi()).resetPassword(guid, password),
  );

  const onFinish = (values: ResetValues) => {
    mutation.run(values.password).then(
      () => navigate('/login', { replace: true, state: { flash: 'auth.reset.success' } }),
      (error: unknown) => {
        if (linkInvalid(error)) setInvalidAfterSubmit(true);
        else applyProblemToForm(form, error, t);
      },
    );
  };

  const invalid = invalidAfterSubmit || (check.isError && linkInvalid(check.error));
  let body;
  if (check.isPending) {
    body = (
      <div className="auth-checking" data-testid="reset-checking">
        <Spin description={t('auth.reset.checking')} />
      </div>
    );
  } else if (invalid || check.isError) {
    body = (
      <Result
        status="warning"
        className="auth-result"
        title={<span data-testid="reset-invalid-title">{t('auth.reset.invalidTitle')}</span>}
        subTitle={
          <span data-testid="reset-invalid">
            {t(
              invalid
                ? E.resetLinkInvalid
                : check.error instanceof ApiError
                  ? check.error.messageKey
                  : E.internal,
            )}
          </span>
        }
        extra={
          <Button type="primary" onClick={() => navigate('/forgot-password')} data-testid="reset-request-new">
            {t('auth.reset.requestNew')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        {mutation.isError && !invalid && (
          <InlineMessage type="error" data-testid="reset-error">
            {t(
              mutation.error instanceof ApiError && mutation.error.status === 429
                ? E.tooManyRequests
                : 'auth.reset.failure',
            )}
          </InlineMessage>
        )}
        <Form<ResetValues>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          onFinish={onFinish}
          data-testid="reset-form"
        >
          <Form.Item
            name="password"
            label={t('auth.reset.password')}
            rules={[zodRule(lazySchema('newPassword'), t)]}
          >
            <Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              autoFocus
              data-testid="reset-password"
            />
          </Form.Item>
          <Form.Item
            name="repeat"
            label={t('auth.reset.repeat')}
            dependencies={['password']}
            rules={[
              { required: true, message: t(V.required) },
              sameAsRule(() => form.getFieldValue('password'), t),
            ]}
          >
            <Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              data-testid="reset-password-repeat"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={mutation.isPending}
            className="auth-submit"
            data-testid="reset-submit"
          >
            {t('auth.reset.submit')}
          </Button>
        </Form>
      </>
    );
  }

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={t('auth.reset.description')} testId="reset-page">
      {body}
      <div className="auth-footer-link">
        <NavLink to="/login" data-testid="reset-back-to-login">
          {t('auth.forgot.backToLogin')}
        </NavLink>
      </div>
    </AuthLayout>
  );
}
