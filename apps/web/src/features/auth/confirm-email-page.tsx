import { useCallback } from 'react';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { E } from '@solar/shared';
import { usePageNav } from '../../lib/page-nav';
import { ApiError } from '../../lib/problem';
import { loadAuthApi } from './api/lazy-auth-api';
import { AuthLayout } from './components/auth-layout';
import { useAsyncLoad } from './use-async';

/**
 * One request per token: the link is single-use, and a development StrictMode mount runs the effect twice.
 */
const confirmations = new Map<string, Promise<void>>();
function confirmOnce(token: string): Promise<void> {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = loadAuthApi().then((authApi) => authApi.confirmEmail(token));
    confirmations.set(token, confirmation);
  }
  return confirmation;
}

/**
 * /confirm-email/:token: opened from the link mailed to a new address; confirms it once, signed in or not
 * (docs/security.md, "Accounts and sessions").
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  const { navigate, params } = usePageNav();
  const token = params.token ?? '';
  const confirm = useAsyncLoad(useCallback(() => confirmOnce(token), [token]));

  let body;
  if (confirm.isPending) {
    body = (
      <div className="auth-checking" data-testid="confirm-email-checking">
        <Spin description={t('auth.confirmEmail.checking')} />
      </div>
    );
  } else if (confirm.isError) {
    const key = confirm.error instanceof ApiError ? confirm.error.messageKey : E.internal;
    body = (
      <Result
        status="warning"
        className="auth-result"
        title={t('auth.confirmEmail.failedTitle')}
        subTitle={<span data-testid="confirm-email-failed">{t(key)}</span>}
      />
    );
  } else {
    body = (
      <Result
        status="success"
        className="auth-result"
        title={<span data-testid="confirm-email-done">{t('auth.confirmEmail.success')}</span>}
        extra={
          <Button type="primary" onClick={() => navigate('/login')} data-testid="confirm-email-login">
            {t('auth.confirmEmail.toLogin')}
          </Button>
        }
      />
    );
  }
  return (
    <AuthLayout title={t('auth.confirmEmail.title')} testId="confirm-email-page">
      {body}
    </AuthLayout>
  );
}
